/** `source_chat_ids` flattened: a list, a map of lists (`first_statement`, `original_info`, …) or a number. */
export function flattenSourceIds(value: unknown): number[] {
  return readSourceIds(value).ids;
}

/**
 * `source_chat_ids` read: the message ids it names (whole numbers, in order), and every other
 * value found in it (`"0"`, `0.5`, `null`, `true`) as JSON, for a warning naming them. Absent or
 * `null` as a whole means no gold. Walked with a stack, never recursion (nesting is bounded by the
 * reader, and a hand-made value must not overflow the stack either).
 */
export function readSourceIds(value: unknown): { ids: number[]; invalid: string[] } {
  const ids: number[] = [];
  const invalid: string[] = [];
  if (value === undefined || value === null) return { ids, invalid };
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'number' && Number.isInteger(current)) ids.push(current);
    else if (Array.isArray(current)) for (let at = current.length - 1; at >= 0; at--) stack.push(current[at]);
    else if (current !== null && typeof current === 'object') {
      const values = Object.values(current);
      for (let at = values.length - 1; at >= 0; at--) stack.push(values[at]);
    } else invalid.push(JSON.stringify(current) ?? String(current));
  }
  return { ids, invalid };
}

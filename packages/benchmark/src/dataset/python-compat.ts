/**
 * The few Python built-ins the official LongMemEval scripts use to build prompts and write
 * hypotheses, reproduced so our prompts and files match theirs byte for byte.
 */

/** A value `json.dumps` can write: what LongMemEval records and hypothesis lines hold. */
export type PythonJsonValue =
  | string
  | number
  | boolean
  | null
  | readonly PythonJsonValue[]
  | { readonly [key: string]: PythonJsonValue | undefined };

/**
 * `json.dumps(value)` with Python's defaults: `", "` and `": "` separators, `ensure_ascii=True`
 * (every character outside printable ASCII written as `\uXXXX`, lowercase hex, astral characters
 * as surrogate pairs), keys in insertion order. Integers are written as digits; keys whose value
 * is `undefined` are skipped (they do not exist in the Python dict).
 */
export function pythonJsonDumps(value: PythonJsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pythonJsonString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return pythonJsonNumber(value);
  if (Array.isArray(value))
    return `[${value.map((item: PythonJsonValue) => pythonJsonDumps(item)).join(', ')}]`;
  const members: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) members.push(`${pythonJsonString(key)}: ${pythonJsonDumps(item)}`);
  }
  return `{${members.join(', ')}}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function pythonJsonString(text: string): string {
  let out = '"';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const char = text[index]!;
    const short = SHORT_ESCAPES[char];
    if (short !== undefined) out += short;
    else if (unit >= 0x20 && unit <= 0x7e) out += char;
    else out += `\\u${unit.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

function pythonJsonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  // Integers print alike; LongMemEval has no non-integer numbers (Python would print `1.0`).
  return String(value);
}

// Characters for which Python's str.isspace() is true (what str.strip() removes).
const PYTHON_WHITESPACE =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const STRIP_PATTERN = new RegExp(`^[${PYTHON_WHITESPACE}]+|[${PYTHON_WHITESPACE}]+$`, 'g');

/** `str.strip()`: unlike `String.prototype.trim`, strips \x1c-\x1f and \x85 and keeps \ufeff. */
export function pythonStrip(text: string): string {
  return text.replace(STRIP_PATTERN, '');
}

/** `str(value)` for the values the official templates receive (answers are strings or integers). */
export function pythonStr(value: string | number | boolean | null): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}

/**
 * `template.format(*args)` for templates with automatic `{}` fields: fields are filled in order,
 * `{{` and `}}` are literal braces. Substituted text is never re-scanned.
 */
export function pythonFormat(
  template: string,
  ...args: readonly (string | number | boolean | null)[]
): string {
  let out = '';
  let next = 0;
  for (let index = 0; index < template.length; index += 1) {
    const char = template[index];
    const following = template[index + 1];
    if (char === '{' && following === '{') {
      out += '{';
      index += 1;
    } else if (char === '}' && following === '}') {
      out += '}';
      index += 1;
    } else if (char === '{' && following === '}') {
      if (next >= args.length)
        throw new Error(`The template has more {} fields than the ${args.length} values given.`);
      out += pythonStr(args[next] as string | number | boolean | null);
      next += 1;
      index += 1;
    } else if (char === '{' || char === '}') {
      throw new Error(
        `Only automatic {} fields are supported; found "${char}" at offset ${index} of the template.`,
      );
    } else {
      out += char;
    }
  }
  return out;
}

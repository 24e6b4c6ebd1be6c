import { z } from 'zod';
import type { ComponentOption } from '../components/component.js';
import { closeNames } from './close-names.js';

type Field = z.core.$ZodType & { def: { type: string; innerType?: Field; defaultValue?: unknown } };

/** An option's schema without its `.default()` / `.optional()` wrappers, and its default. */
export type OptionField = { schema: Field; defaultValue: unknown };

export function unwrapOption(option: Pick<ComponentOption, 'schema'>): OptionField {
  let schema = option.schema as unknown as Field;
  let defaultValue: unknown;
  while (schema.def.innerType && ['default', 'optional', 'prefault', 'nullable'].includes(schema.def.type)) {
    if (schema.def.type === 'default') defaultValue = schema.def.defaultValue;
    schema = schema.def.innerType;
  }
  return { schema, defaultValue };
}

/** An option read from text: its value, or what is wrong with the text (a phrase: "takes …"). */
export type OptionText = { value: unknown } | { problem: string };

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const BOOLEAN = z.stringbool();

/**
 * What a number schema takes, as "a whole number from 1 to 64", "a number above 0" or "a number of
 * at most 1": its `int()`, and its min (inclusive or exclusive) and max.
 */
function numberKind(schema: z.ZodNumber): string {
  const kind = schema.isInt ? 'a whole number' : 'a number';
  // `int()` alone bounds a number by the safe integers: no bound a user needs to hear.
  const bound = (value: number | null) =>
    value !== null && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
  const min = bound(schema.minValue);
  const max = bound(schema.maxValue);
  const exclusiveMin = (schema.def.checks ?? []).some((check) => {
    const def = check._zod.def as { check: string; inclusive?: boolean };
    return def.check === 'greater_than' && def.inclusive === false;
  });
  if (min !== undefined && exclusiveMin)
    return `${kind} above ${min}${max === undefined ? '' : ` and at most ${max}`}`;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} of at least ${min}`;
  return max === undefined ? kind : `${kind} of at most ${max}`;
}

/**
 * A number read from text and held to a number schema: written in decimal (not 0x1 or Infinity,
 * which `Number` accepts) and within its bounds; else what the schema takes (`numberKind`, or a
 * refinement's own words). A flag and a `--provider-option` read numbers through it.
 */
export function numberFromText(schema: z.ZodNumber, text: string): { value: number } | { takes: string } {
  const checked = DECIMAL.test(text.trim()) ? schema.safeParse(Number(text)) : undefined;
  if (checked?.success) return { value: checked.data };
  const custom = checked?.error.issues.find((issue) => issue.code === 'custom');
  return { takes: custom ? custom.message : numberKind(schema) };
}

/** The first problem zod finds, as a phrase that follows `option "x": `. */
function problemOf(error: z.ZodError): string {
  const message = error.issues[0]!.message.replace(/^Invalid input: /, '').replace(/\.$/, '');
  return `${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}

/**
 * One option's value from the text of a command line (`--provider-option key=value`), read by its
 * schema's type: a number as `numberFromText` reads it, a boolean as true/false (yes/no, 1/0, on/off), an enum's value (a close one
 * suggested), any other type as the text itself; then held to the whole schema.
 */
export function optionFromText(option: Pick<ComponentOption, 'schema'>, text: string): OptionText {
  if (text.trim() === '') return { problem: 'is empty; give a value or leave the option out' };
  const base = unwrapOption(option).schema;
  let value: unknown = text;
  if (base instanceof z.ZodNumber) {
    const read = numberFromText(base, text);
    if ('takes' in read) return { problem: `takes ${read.takes}` };
    value = read.value;
  } else if (base instanceof z.ZodBoolean) {
    const read = BOOLEAN.safeParse(text.trim());
    if (!read.success) return { problem: 'takes true or false (or yes/no, 1/0)' };
    value = read.data;
  } else if (base instanceof z.ZodEnum) {
    const choices = base.options.map(String);
    value = text.trim();
    if (!choices.includes(value as string)) {
      const close = closeNames(value as string, choices, 1);
      return {
        problem: `takes one of ${choices.join(', ')}${close.length > 0 ? ` (did you mean "${close[0]}"?)` : ''}`,
      };
    }
  }
  const parsed = option.schema.safeParse(value);
  return parsed.success ? { value: parsed.data } : { problem: problemOf(parsed.error) };
}

import { InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import { numberFromText } from '../config/option-text.js';

/**
 * Commander argument parsers. Commander calls a parser with (value, previous); passing it
 * straight to parseInt would make the previous value the radix, so every parser here takes the
 * value only and rejects anything that is not entirely a number in range.
 */
export function integerFlag(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`expected a whole number, got "${value}".`);
    const parsed = Number(value);
    if (parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, got ${parsed}.`);
    }
    return parsed;
  };
}

export function numberFlag(min: number, max = Number.POSITIVE_INFINITY) {
  return (value: string): number => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed)) {
      throw new InvalidArgumentError(`expected a number, got "${value}".`);
    }
    if (parsed < min || parsed > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got ${parsed}.`);
    return parsed;
  };
}

/**
 * A parser for a number flag whose type and bounds are those of a zod number schema (the run
 * config's), read as a `--provider-option` is (`numberFromText`), so the flag, a preset and a
 * component's option accept the same values.
 */
export function schemaNumberFlag(schema: z.ZodNumber) {
  return (value: string): number => {
    const read = numberFromText(schema, value);
    if ('takes' in read) throw new InvalidArgumentError(`expected ${read.takes}, got "${value}".`);
    return read.value;
  };
}

/** `0.4,0.6` → [0.4, 0.6]. */
export function weightsFlag(value: string): [number, number] {
  const parts = value.split(',').map((part) => Number(part));
  if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part) || part < 0)) {
    throw new InvalidArgumentError(
      `expected two non-negative numbers "bm25,dense" such as 0.4,0.6, got "${value}".`,
    );
  }
  return [parts[0]!, parts[1]!];
}

/** `a,b , c` → ['a', 'b', 'c']. */
export function listFlag(value: string): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new InvalidArgumentError('expected a comma-separated list.');
  return items;
}

/** `text=0.3,dense=0.7` → {text: 0.3, dense: 0.7}. */
export function namedWeightsFlag(value: string): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const part of value.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*([\d.]+)\s*$/.exec(part);
    const weight = Number(match?.[2]);
    if (!match || !Number.isFinite(weight)) {
      throw new InvalidArgumentError(
        `expected name=weight pairs such as text=0.3,dense=0.7, got "${value}".`,
      );
    }
    weights[match[1]!] = weight;
  }
  return weights;
}

/**
 * One `--provider-option key=value`, added to the ones before it (the flag repeats): the value is
 * everything after the first `=`, kept as text for the provider's schema to parse.
 */
export function keyValueFlag(
  value: string,
  previous: Record<string, string> | undefined,
): Record<string, string> {
  const match = /^\s*([A-Za-z][\w.-]*)\s*=(.*)$/s.exec(value);
  if (!match)
    throw new InvalidArgumentError(
      `expected key=value, got "${value.length > 40 ? `${value.slice(0, 40)}… (${value.length} characters)` : value}".`,
    );
  return { ...previous, [match[1]!]: match[2]! };
}

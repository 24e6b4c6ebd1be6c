import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { optionFromText, unwrapOption } from './option-text.js';

const option = (schema: z.ZodType) => ({ schema });

describe('an option read from command-line text', () => {
  it('reads a number written in decimal within its bounds, and says which numbers it takes', () => {
    const fraction = option(z.number().min(0).max(1).default(0.1));
    expect(optionFromText(fraction, '.25')).toEqual({ value: 0.25 });
    expect(optionFromText(fraction, ' 1e-1 ')).toEqual({ value: 0.1 });
    for (const text of ['0x1', 'Infinity', '1/2', 'NaN'])
      expect(optionFromText(fraction, text), text).toEqual({
        problem: 'takes a number from 0 to 1',
      });
    expect(optionFromText(fraction, '2')).toEqual({ problem: 'takes a number from 0 to 1' });
    const count = option(z.number().int().min(1).optional());
    expect(optionFromText(count, '1.5')).toEqual({ problem: 'takes a whole number of at least 1' });
    expect(optionFromText(count, '12')).toEqual({ value: 12 });
  });

  it('reads a boolean as true/false, yes/no or 1/0, never any text as true', () => {
    const flag = option(z.boolean().default(true));
    expect(optionFromText(flag, 'false')).toEqual({ value: false });
    expect(optionFromText(flag, 'no')).toEqual({ value: false });
    expect(optionFromText(flag, '0')).toEqual({ value: false });
    expect(optionFromText(flag, 'YES')).toEqual({ value: true });
    expect(optionFromText(flag, 'maybe')).toEqual({ problem: 'takes true or false (or yes/no, 1/0)' });
  });

  it("reads an enum's value, naming the values and the close one", () => {
    const mode = option(z.enum(['mine', 'raw', 'hybrid']).default('mine'));
    expect(optionFromText(mode, 'raw')).toEqual({ value: 'raw' });
    expect(optionFromText(mode, 'hybird')).toEqual({
      problem: 'takes one of mine, raw, hybrid (did you mean "hybrid"?)',
    });
    expect(optionFromText(mode, 'x')).toEqual({ problem: 'takes one of mine, raw, hybrid' });
  });

  it("holds text to the schema's own checks, and refuses an empty value", () => {
    const url = option(z.string().url().default('https://example.org'));
    expect(optionFromText(url, 'http://localhost:8080')).toEqual({ value: 'http://localhost:8080' });
    expect(optionFromText(url, 'not a url')).toEqual({ problem: 'invalid URL' });
    expect(optionFromText(url, ' ')).toEqual({ problem: 'is empty; give a value or leave the option out' });
  });

  it('gives the schema under its wrappers and its default', () => {
    expect(unwrapOption(option(z.number().optional())).defaultValue).toBeUndefined();
    const { schema, defaultValue } = unwrapOption(option(z.enum(['a', 'b']).optional().default('a')));
    expect(schema).toBeInstanceOf(z.ZodEnum);
    expect(defaultValue).toBe('a');
  });
});

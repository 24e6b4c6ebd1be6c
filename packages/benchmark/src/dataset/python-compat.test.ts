import { describe, expect, it } from 'vitest';
import { pythonFormat, pythonJsonDumps, pythonStr, pythonStrip } from './python-compat.js';

describe('pythonJsonDumps', () => {
  it('matches json.dumps defaults: separators, ensure_ascii, escapes, key order', () => {
    // Python: json.dumps([{"role": "user", "content": "Caf\u00e9 \"q\" \\ \n\t \U0001F389 \x7f \x01 / <b>"}, {"role": "assistant", "content": ""}])
    expect(
      pythonJsonDumps([
        { role: 'user', content: 'Café "q" \\ \n\t 🎉 \x7f \x01 / <b>' },
        { role: 'assistant', content: '' },
      ]),
    ).toBe(
      '[{"role": "user", "content": "Caf\\u00e9 \\"q\\" \\\\ \\n\\t \\ud83c\\udf89 \\u007f \\u0001 / <b>"}, {"role": "assistant", "content": ""}]',
    );
    expect(pythonJsonDumps({ a: 1, b: [true, false, null], c: {}, d: [] })).toBe(
      '{"a": 1, "b": [true, false, null], "c": {}, "d": []}',
    );
  });
});

describe('pythonStrip', () => {
  it('strips what str.strip() strips', () => {
    // Python: " \x1c\x85 abc \u00a0\ufeff".strip() == "abc \u00a0\ufeff"
    expect(pythonStrip(' \x1c\x85 abc \u00a0\ufeff')).toBe('abc \u00a0\ufeff');
    expect(pythonStrip('\n\t Yes. \r\n')).toBe('Yes.');
  });
});

describe('pythonFormat', () => {
  it('fills {} fields in order without re-scanning the values', () => {
    expect(pythonFormat('Q: {}\nA: {}', 'what is {}?', 3)).toBe('Q: what is {}?\nA: 3');
    expect(pythonFormat('{{literal}} {}', 'x')).toBe('{literal} x');
    expect(() => pythonFormat('{} {}', 'only one')).toThrow('more {} fields');
  });

  it('writes values as str() does', () => {
    expect([pythonStr(3), pythonStr('3'), pythonStr(true), pythonStr(null)]).toEqual([
      '3',
      '3',
      'True',
      'None',
    ]);
  });
});

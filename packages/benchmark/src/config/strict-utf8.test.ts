import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstNonUtf8Byte } from './strict-utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('firstNonUtf8Byte', () => {
  it('finds nothing in well-formed UTF-8, multi-byte sequences included', () => {
    expect(firstNonUtf8Byte(Buffer.from('plain, é, € and 😀', 'utf8'))).toBeUndefined();
  });

  it('names the lead byte of the first ill-formed sequence', () => {
    expect(firstNonUtf8Byte(bytes(0x61, 0xff, 0x62))).toEqual({ offset: 1, byte: 0xff });
    expect(firstNonUtf8Byte(bytes(0x61, 0x62, 0xc0, 0x80))).toEqual({ offset: 2, byte: 0xc0 }); // overlong
    expect(firstNonUtf8Byte(bytes(0xed, 0xa0, 0x80))).toEqual({ offset: 0, byte: 0xed }); // a surrogate
    expect(firstNonUtf8Byte(bytes(0xc3, 0xa9, 0xe2, 0x82))).toEqual({ offset: 2, byte: 0xe2 }); // cut short
    expect(firstNonUtf8Byte(bytes(0x61, 0x80))).toEqual({ offset: 1, byte: 0x80 }); // a lone continuation
    expect(firstNonUtf8Byte(bytes(0xf4, 0x90, 0x80, 0x80))).toEqual({ offset: 0, byte: 0xf4 }); // > U+10FFFF
  });
});

describe('decodeUtf8', () => {
  it('refuses, in one sentence naming the file and the offset, what would decode to U+FFFD', () => {
    expect(decodeUtf8(Buffer.from('{"a":"é"}'), 'x.json')).toBe('{"a":"é"}');
    expect(() => decodeUtf8(Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]), 'runs/r/config.json')).toThrow(
      'runs/r/config.json: byte 2 (0xe9) is not UTF-8; lme reads UTF-8 text only: save the file as UTF-8.',
    );
  });
});

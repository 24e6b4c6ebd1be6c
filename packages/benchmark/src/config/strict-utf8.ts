import { isUtf8 } from 'node:buffer';

/**
 * Where the first byte that is not well-formed UTF-8 stands in `bytes` (the lead byte of a bad or
 * cut sequence), and its value; undefined when every byte is. The check itself is Node's
 * `isUtf8`; the scan for the offset runs only when it fails.
 */
export function firstNonUtf8Byte(bytes: Uint8Array): { offset: number; byte: number } | undefined {
  if (isUtf8(bytes)) return undefined;
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at]!;
    const length = sequenceLength(bytes, at, lead);
    if (length === 0) return { offset: at, byte: lead };
    at += length;
  }
  return undefined;
}

/** The length of the well-formed sequence at `at` (Unicode Table 3-7), or 0. */
function sequenceLength(bytes: Uint8Array, at: number, lead: number): number {
  if (lead < 0x80) return 1;
  const [length, low, high] =
    lead >= 0xc2 && lead <= 0xdf
      ? [2, 0x80, 0xbf]
      : lead === 0xe0
        ? [3, 0xa0, 0xbf]
        : lead === 0xed
          ? [3, 0x80, 0x9f]
          : lead >= 0xe1 && lead <= 0xef
            ? [3, 0x80, 0xbf]
            : lead === 0xf0
              ? [4, 0x90, 0xbf]
              : lead === 0xf4
                ? [4, 0x80, 0x8f]
                : lead >= 0xf1 && lead <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : [0, 0, 0];
  if (length === 0 || at + length > bytes.length) return 0;
  const second = bytes[at + 1]!;
  if (second < low || second > high) return 0;
  for (let next = at + 2; next < at + length; next++) {
    if (bytes[next]! < 0x80 || bytes[next]! > 0xbf) return 0;
  }
  return length;
}

/** `byte 1234 (0xff)`, for messages that name the file themselves. */
export function describeNonUtf8(found: { offset: number; byte: number }, base = 0): string {
  return `byte ${base + found.offset} (0x${found.byte.toString(16).padStart(2, '0')})`;
}

/**
 * `bytes` as text, or one sentence naming the file and the byte offset of the first byte that is
 * not UTF-8 (never text silently turned into U+FFFD).
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  const found = firstNonUtf8Byte(bytes);
  if (found) {
    throw new Error(
      `${path}: ${describeNonUtf8(found)} is not UTF-8; lme reads UTF-8 text only: save the file as UTF-8.`,
    );
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

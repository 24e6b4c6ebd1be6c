import { createHash } from 'node:crypto';

/**
 * mulberry32: a small, fast 32-bit PRNG. The same seed gives the same stream on every platform,
 * so a bootstrap or an M-scale haystack with a recorded seed reproduces exactly. Returns floats in
 * [0, 1).
 */
export function createMulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** mulberry32 seeded from the first four bytes (little-endian) of SHA-256 of the text. */
export function seededRandom(text: string): () => number {
  return createMulberry32(createHash('sha256').update(text).digest().readUInt32LE(0));
}

import { describe, expect, it } from 'vitest';
import { float32Json } from './float32-json.js';

describe('float32Json', () => {
  it('reads back as the same float32 for every kind of component, never longer than toPrecision(9)', () => {
    const bits = new Uint32Array(1);
    const value = new Float32Array(bits.buffer);
    const edges = [
      1, -1, 10, 100, 1e8, 123456789, 999999999, 1e9, 1e-4, 9.9999e-5, 0.1, 12.5, 1.5e-45, 3.4e38,
    ];
    const components: number[] = edges.map((edge) => Math.fround(edge));
    // Every exponent, a spread of mantissas (a seeded LCG: the same components every run).
    let seed = 12345;
    for (let draw = 0; draw < 200_000; draw++) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      bits[0] = seed;
      if (Number.isFinite(value[0]!)) components.push(value[0]!);
    }
    const vector = Float32Array.from(components);
    const text = float32Json(vector);
    const read = JSON.parse(text) as number[];
    expect(read).toHaveLength(vector.length);
    const wrong = read.filter((number, index) => Math.fround(number) !== vector[index]);
    expect(wrong).toEqual([]);
    const numbers = text.slice(1, -1).split(',');
    // One at a time too: a buffer sized for the vector has no other component's slack to spare.
    const alone = numbers.filter(
      (number, index) => float32Json(vector.subarray(index, index + 1)) !== `[${number}]`,
    );
    expect(alone).toEqual([]);
    const longer = numbers.filter(
      (number, index) => vector[index] !== 0 && number.length > vector[index]!.toPrecision(9).length,
    );
    expect(longer).toEqual([]);
  });

  it('writes embedding-sized components in plain decimals, zero as 0', () => {
    expect(float32Json(Float32Array.from([0, -0.0512, 0.25, 1]))).toBe('[0,-0.0511999987,0.25,1]');
  });
});

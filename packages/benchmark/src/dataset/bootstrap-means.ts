import { createMulberry32 } from './seeded-random.js';

/**
 * The means of `resamples` bootstrap resamples of `values` (drawn with replacement by a mulberry32
 * generator seeded `seed`), sorted ascending. `values` must not be empty.
 */
export function bootstrapMeans(values: ArrayLike<number>, resamples: number, seed: number): Float64Array {
  const n = values.length;
  const random = createMulberry32(seed);
  const means = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    let sum = 0;
    for (let draw = 0; draw < n; draw++) sum += values[Math.floor(random() * n)]!;
    means[resample] = sum / n;
  }
  return means.sort();
}

/** The q-quantile of ascending values, interpolated linearly between the two nearest ranks. */
export function quantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

import { bootstrapMeans, quantile } from '../dataset/bootstrap-means.js';

export type PairedBootstrapOptions = {
  /** Resamples drawn (default 10 000). */
  resamples?: number;
  /** Seed of the mulberry32 generator (default 42); recorded in the result. */
  seed?: number;
};

export type PairedBootstrapResult = {
  /** Mean of other − base over the pairs. */
  meanDiff: number;
  /** 2.5th and 97.5th percentiles of the resampled mean differences (linear interpolation). */
  ci95: [number, number];
  /**
   * Two-sided: the share of resampled mean differences on the other side of 0 from `meanDiff`
   * (0 included), doubled, capped at 1; 1 when `meanDiff` is 0. With R resamples the smallest
   * non-zero value is 2/R, and 0 means "below 1/R".
   */
  pValue: number;
  n: number;
  resamples: number;
  seed: number;
};

export const DEFAULT_RESAMPLES = 10_000;
export const DEFAULT_SEED = 42;

/**
 * Paired bootstrap of the mean difference: resamples question indices with replacement (both runs'
 * values of a question move together) and recomputes the mean of other − base each time.
 */
export function pairedBootstrap(
  base: readonly number[],
  other: readonly number[],
  options: PairedBootstrapOptions = {},
): PairedBootstrapResult {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  if (base.length !== other.length) {
    throw new Error(`The paired bootstrap needs paired values, got ${base.length} and ${other.length}.`);
  }
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new Error(`The paired bootstrap needs a whole number of resamples, got ${resamples}.`);
  }
  const n = base.length;
  if (n === 0) return { meanDiff: Number.NaN, ci95: [Number.NaN, Number.NaN], pValue: 1, n, resamples, seed };
  const differences = Float64Array.from(base, (value, index) => other[index]! - value);
  let total = 0;
  for (const difference of differences) total += difference;
  const meanDiff = total / n;

  const means = bootstrapMeans(differences, resamples, seed);

  let otherSide = 0;
  if (meanDiff > 0) for (const mean of means) otherSide += mean <= 0 ? 1 : 0;
  else if (meanDiff < 0) for (const mean of means) otherSide += mean >= 0 ? 1 : 0;
  const pValue = meanDiff === 0 ? 1 : Math.min(1, (2 * otherSide) / resamples);
  return { meanDiff, ci95: [quantile(means, 0.025), quantile(means, 0.975)], pValue, n, resamples, seed };
}

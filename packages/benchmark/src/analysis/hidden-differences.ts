import { EMPTY_GROUP, type Group, meanAndN, members, pairUp, sharedMetrics } from './comparison-groups.js';
import type { HiddenCategoryDifference, HiddenDifference } from './comparison-result.js';
import type { Run } from './read-run.js';

/**
 * The metrics both runs have that `metrics` leaves out, where some question's value differs or a
 * category's mean moves: what an all-zero table would otherwise hide. Largest change first.
 */
export function hiddenDifferences(
  base: Run,
  other: Run,
  metrics: readonly string[],
  baseGroups: Map<string, Group>,
  otherGroups: Map<string, Group>,
): HiddenDifference[] {
  const shown = new Set(metrics);
  const found: HiddenDifference[] = [];
  for (const metric of sharedMetrics(base, other)) {
    if (shown.has(metric)) continue;
    const changedIds = new Set<string>();
    const categories: HiddenCategoryDifference[] = [];
    for (const [category, baseGroup] of baseGroups) {
      const baseSamples = members(baseGroup, metric);
      const otherSamples = members(otherGroups.get(category) ?? EMPTY_GROUP, metric);
      let nPaired = 0;
      let changed = 0;
      for (const [baseSample, otherSample] of pairUp(baseSamples, otherSamples)) {
        const baseValue = baseSample.metrics[metric];
        const otherValue = otherSample.metrics[metric];
        if (baseValue === undefined || otherValue === undefined) continue;
        nPaired += 1;
        if (baseValue !== otherValue) {
          changed += 1;
          changedIds.add(baseSample.question_id);
        }
      }
      const baseMean = meanAndN(baseSamples, metric).mean;
      const otherMean = meanAndN(otherSamples, metric).mean;
      const delta = baseMean === undefined || otherMean === undefined ? 0 : otherMean - baseMean;
      if (changed > 0 || Math.abs(delta) > 1e-12) categories.push({ category, delta, nPaired, changed });
    }
    if (categories.length > 0) found.push({ metric, changed: changedIds.size, categories });
  }
  const largest = (difference: HiddenDifference) =>
    Math.max(...difference.categories.map(({ delta }) => Math.abs(delta)));
  return found.sort((left, right) => largest(right) - largest(left) || right.changed - left.changed);
}

/**
 * BEAM's event-ordering figure (`event_ordering_score`, src/evaluation/compute_metrics.py at
 * b2a3ee8): the answer's lines are aligned with the rubric items (the reference order) by an
 * equivalence judge, then compared as rankings with Kendall's tau-b, normalised to [0, 1].
 * `report_results.py` reports this `tau_norm` as the ability's score, not the rubric judge's.
 */

export type EventOrderingScore = {
  precision: number;
  recall: number;
  f1: number;
  /** (tau_b + 1) / 2; null where scipy's tau-b is NaN (fewer than two items, or one side all tied). */
  tauNorm: number | null;
  /** tauNorm × f1 (`final_score`); null with tauNorm. */
  finalScore: number | null;
};

/**
 * `align_with_llm`: each system item, in order, takes the first reference item not yet taken that
 * the judge calls the same event (`equivalent(reference, system)`); unmatched items stay as they are.
 */
export async function alignWithJudge(
  reference: readonly string[],
  system: readonly string[],
  equivalent: (reference: string, system: string) => Promise<boolean>,
): Promise<string[]> {
  const used = new Set<number>();
  const out: string[] = [];
  for (const item of system) {
    let matched: number | undefined;
    for (let index = 0; index < reference.length; index++) {
      if (used.has(index)) continue;
      if (await equivalent(reference[index]!, item)) {
        matched = index;
        break;
      }
    }
    if (matched === undefined) out.push(item);
    else {
      out.push(reference[matched]!);
      used.add(matched);
    }
  }
  return out;
}

/** Kendall's tau-b of two equal-length rank lists, as scipy.stats.kendalltau(variant="b"); NaN when undefined. */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length)
    throw new Error(`kendallTauB: lists of different lengths (${x.length}, ${y.length})`);
  let concordant = 0;
  let discordant = 0;
  let onlyX = 0;
  let onlyY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) onlyX++;
      else if (dy === 0) onlyY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denominator = Math.sqrt((concordant + discordant + onlyX) * (concordant + discordant + onlyY));
  return denominator === 0 ? Number.NaN : (concordant - discordant) / denominator;
}

/** `event_ordering_score` after alignment: set overlap (precision, recall, F1) and the normalised tau-b of the two orders. */
export function eventOrderingScore(
  reference: readonly string[],
  systemCanon: readonly string[],
): EventOrderingScore {
  const referenceSet = new Set(reference);
  const systemSet = new Set(systemCanon);
  const tp = [...referenceSet].filter((item) => systemSet.has(item)).length;
  const fp = systemCanon.filter((item) => !referenceSet.has(item)).length;
  const fn = reference.filter((item) => !systemSet.has(item)).length;
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const union = [...new Set([...reference, ...systemCanon])];
  const tieRank = union.length + 1;
  const toRank = (sequence: readonly string[]) => {
    const rank = new Map<string, number>();
    for (const [index, item] of sequence.entries()) rank.set(item, index + 1); // a repeated item keeps its last position, as the dict does
    return union.map((item) => rank.get(item) ?? tieRank);
  };
  const tau = union.length < 2 ? Number.NaN : kendallTauB(toRank(reference), toRank(systemCanon));
  const tauNorm = Number.isNaN(tau) ? null : (tau + 1) / 2;
  return { precision, recall, f1, tauNorm, finalScore: tauNorm === null ? null : tauNorm * f1 };
}

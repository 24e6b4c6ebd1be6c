import type { Sample } from '../../results/sample.js';

/**
 * The warning for questions whose evidence-convention gold sessions are missing from their
 * haystack (a dataset defect: no retriever can find them, so they count as not retrieved in every
 * recall figure), naming how many and the first few; undefined when there are none.
 */
export function absentGoldWarning(samples: readonly Sample[]): string | undefined {
  const ids = samples
    .filter((sample) => sample.gold_absent !== undefined)
    .map((sample) => sample.question_id);
  if (ids.length === 0) return undefined;
  const first = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '');
  return (
    `${ids.length} question${ids.length === 1 ? ' has' : 's have'} evidence sessions missing from the haystack ` +
    `(gold_absent in samples.jsonl; ${first}); they count as not retrieved in every recall figure: ` +
    'fix the dataset, or set them aside with an errata file (--errata).'
  );
}

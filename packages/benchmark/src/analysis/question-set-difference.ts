import { orderQuestionTypes } from '../benchmarks/benchmark-registry.js';
import type { Summary } from '../results/summary.js';
import type { Run } from './read-run.js';

/** A run to compare question sets of: its summary, and its samples when a run folder was read. */
export type QuestionSetSource = { summary: Summary; run?: Run };

const NAMED = 3;

function questionWord(n: number): string {
  return n === 1 ? 'question' : 'questions';
}

function byIds(run: Run, baseline: Run): string | null {
  const runIds = new Set(run.samples.map((sample) => sample.question_id));
  const baselineIds = new Set(baseline.samples.map((sample) => sample.question_id));
  const missing = [...baselineIds].filter((id) => !runIds.has(id));
  const extra = [...runIds].filter((id) => !baselineIds.has(id));
  if (missing.length === 0 && extra.length === 0) return null;
  const parts: string[] = [];
  if (missing.length > 0) {
    parts.push(
      `${missing.length} of the baseline's ${baselineIds.size} ${questionWord(baselineIds.size)} ${missing.length === 1 ? 'is' : 'are'} not in the run (${missing.slice(0, NAMED).join(', ')}${missing.length > NAMED ? ', …' : ''})`,
    );
  }
  if (extra.length > 0) {
    parts.push(
      `${extra.length} of the run's ${runIds.size} ${questionWord(runIds.size)} ${extra.length === 1 ? 'is' : 'are'} not in the baseline (${extra.slice(0, NAMED).join(', ')}${extra.length > NAMED ? ', …' : ''})`,
    );
  }
  return parts.join(' and ');
}

/** Questions per type a summary was over: counted ones plus, when recorded, failed ones. */
function perType(summary: Summary): Map<string, number> {
  return new Map(
    Object.entries(summary.metrics.by_type).map(([type, means]) => [
      type,
      means.n + (typeof means.errors === 'number' ? means.errors : 0),
    ]),
  );
}

function byCounts(run: Summary, baseline: Summary): string | null {
  const runTypes = perType(run);
  const baselineTypes = perType(baseline);
  const types = orderQuestionTypes([...runTypes.keys(), ...baselineTypes.keys()]);
  const differing = types.filter((type) => (runTypes.get(type) ?? 0) !== (baselineTypes.get(type) ?? 0));
  if (run.n === baseline.n && differing.length === 0) return null;
  const named = differing
    .slice(0, NAMED)
    .map((type) => `${type} ${runTypes.get(type) ?? 0} vs ${baselineTypes.get(type) ?? 0}`);
  const typeNote =
    differing.length === 0
      ? ''
      : `; ${differing.length} ${differing.length === 1 ? 'type differs' : 'types differ'} in questions counted (${named.join(', ')}${differing.length > NAMED ? ', …' : ''})`;
  return `the run has ${run.n} ${questionWord(run.n)} and the baseline ${baseline.n}${typeNote}`;
}

/**
 * How the run's question set differs from the baseline's, or null when it does not: by question
 * id when both are run folders, else by the number of questions overall and per type their
 * summaries record (a summary.json alone has no ids).
 */
export function questionSetDifference(run: QuestionSetSource, baseline: QuestionSetSource): string | null {
  if (run.run !== undefined && baseline.run !== undefined) return byIds(run.run, baseline.run);
  return byCounts(run.summary, baseline.summary);
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { loadPreset } from '../config/presets.js';
import type { Sample } from '../results/sample.js';
import { runBenchmark } from '../run/run-benchmark.js';
import {
  type Comparison,
  compareWithReference,
  loadReferenceRun,
  referenceRunName,
  regradeOfficialRanking,
} from './official-reference.js';

/**
 * Session runs do not depend on tie order: every mean and per-question metric must match to 1e-6.
 * Turn runs do (the official argsort is unstable; lme breaks ties by corpus order, which the
 * reference README measures to move a mean by at most 0.0048, oracle turn B): their means are
 * allowed that much, and their per-question metrics are checked by grading the official ranking
 * itself with lme's metric code, to 1e-6.
 */
export const REFERENCE_TOLERANCE = { session: 1e-6, turn: 0.005 } as const;
export const REFERENCE_QUESTION_TOLERANCE = 1e-6;

export type ReferenceCheckOptions = {
  dataset: 'oracle' | 's';
  granularity: 'session' | 'turn';
  /** Folder of the LongMemEval files. */
  dataDir: string;
  /** Folder of the official reference runs (reference/official-bm25). */
  referenceDir: string;
  /** Parent folder of the run folder lme writes. */
  out: string;
};

/**
 * Runs lme's BM25 with the official tokenizer on one dataset and granularity and compares every
 * mean, every per-question metric and every top-50 ranking with the official reference run.
 */
export async function checkReferenceRun(
  options: ReferenceCheckOptions,
): Promise<Comparison & { name: string }> {
  const { dataset, granularity, dataDir, referenceDir, out } = options;
  const name = referenceRunName(dataset, granularity);
  // The official retriever is the bm25-official preset's (configs/presets/bm25-official.json).
  const input = { ...loadPreset('bm25-official').config, dataset, dataDir, granularity, out, runId: name };
  const { dir } = await runBenchmark(input, { argv: [] });
  const samples = readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Sample);
  const reference = loadReferenceRun(referenceDir, name);
  const comparison = compareWithReference({
    reference,
    samples,
    granularity,
    tolerance: REFERENCE_TOLERANCE[granularity],
    questionTolerance: granularity === 'session' ? REFERENCE_QUESTION_TOLERANCE : null,
  });
  if (granularity === 'turn') {
    const { records } = await loadAnyDataset(resolveDatasetPath(dataset, dataDir));
    for (const record of records) {
      const { maxDiff, worst } = regradeOfficialRanking(
        record,
        reference.questions.get(record.question_id)!,
        granularity,
      );
      comparison.maxQuestionDiff = Math.max(comparison.maxQuestionDiff, maxDiff);
      if (maxDiff > REFERENCE_QUESTION_TOLERANCE)
        comparison.findings.push({ what: `question ${record.question_id}`, detail: worst });
    }
  }
  return { ...comparison, name };
}

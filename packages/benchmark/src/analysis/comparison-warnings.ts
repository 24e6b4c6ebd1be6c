import { inMeans } from '../results/sample.js';
import { sharedDatasetHash } from './config-differences.js';
import { type Run, runExclusion } from './read-run.js';

/** A run with no finished question has no figure to compare: say why, naming its first error. */
export function requireScoredQuestions(run: Run): void {
  if (run.samples.some(inMeans)) return;
  const where = `${run.config.run_id} (${run.dir})`;
  if (run.samples.length === 0) throw new Error(`Run ${where} has no questions in its samples.jsonl.`);
  const failed = run.samples.filter((sample) => sample.error !== null);
  const first = failed[0];
  const cause =
    failed.length === run.samples.length && first !== undefined
      ? `all ${failed.length} failed (first: ${first.question_id}: ${first.error}); see the "error" field of its samples.jsonl`
      : `none of its ${run.samples.length} questions is in the means (errata excluded them)`;
  throw new Error(`Run ${where} has no scored questions: ${cause}.`);
}

/** What makes two runs' figures less comparable: different data, conventions, exclusions, questions, failures. */
export function comparisonWarnings(base: Run, other: Run): string[] {
  const warnings: string[] = [];
  const hash = sharedDatasetHash([base.config, other.config]);
  const baseDataset = base.config.config.dataset;
  const otherDataset = other.config.config.dataset;
  if (hash === 'differ') {
    warnings.push(
      `The runs read different dataset files (${String(baseDataset)} vs ${String(otherDataset)}, SHA-256 differs).`,
    );
  } else if (hash === null && baseDataset !== otherDataset) {
    warnings.push(`The runs name different datasets (${String(baseDataset)} vs ${String(otherDataset)}).`);
  }
  const baseConvention = base.config.config.convention;
  const otherConvention = other.config.config.convention;
  if (baseConvention !== otherConvention) {
    warnings.push(
      `The runs grade with different conventions (${String(baseConvention)} vs ${String(otherConvention)}); their metrics are not comparable.`,
    );
  } else if (runExclusion(base.config) !== runExclusion(other.config)) {
    warnings.push(
      `The runs' means skip different questions (exclusion ${runExclusion(base.config)} vs ${runExclusion(other.config)}).`,
    );
  }
  const otherIds = new Set(other.samples.map((sample) => sample.question_id));
  const baseIds = new Set(base.samples.map((sample) => sample.question_id));
  const onlyBase = base.samples.filter((sample) => !otherIds.has(sample.question_id)).length;
  const onlyOther = other.samples.filter((sample) => !baseIds.has(sample.question_id)).length;
  if (onlyBase > 0 || onlyOther > 0) {
    warnings.push(
      `${onlyBase} questions are only in ${base.config.run_id} and ${onlyOther} only in ${other.config.run_id}; the tests use the questions both hold.`,
    );
  }
  for (const run of [base, other]) {
    const failed = run.samples.filter((sample) => sample.error !== null).length;
    if (failed > 0) warnings.push(`${failed} questions failed in ${run.config.run_id} and are left out.`);
  }
  return warnings;
}

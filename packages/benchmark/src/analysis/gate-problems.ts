import type { Summary } from '../results/summary.js';
import { partialReason } from '../run/outputs/run-manifest.js';
import { sharedDatasetHash } from './config-differences.js';
import { describeFailed, type FailedQuestions, failedQuestions } from './failed-questions.js';
import { questionSetDifference } from './question-set-difference.js';
import type { Run } from './read-run.js';

export type GateProblemsOptions = {
  summary: Summary;
  summaryPath: string;
  run?: Run;
  baseline?: { summary: Summary; path: string; run?: Run };
  /** The run's failed questions (failedQuestions). */
  failed: FailedQuestions;
  /** Checks the gate evaluated. */
  checkCount: number;
  allowErrors?: number;
  allowSubset?: boolean;
  /** Pass a run that stopped early (default: fail). */
  allowPartial?: boolean;
};

function partialProblem(options: GateProblemsOptions, warnings: string[]): string | null {
  const reason =
    options.summary.partial?.reason ??
    (options.run === undefined ? undefined : partialReason(options.run.config));
  if (reason === undefined) return null;
  if (options.allowPartial) {
    warnings.push(`The run is partial (--allow-partial): ${reason}.`);
    return null;
  }
  return `The run is partial: ${reason}; its means cover only the questions it finished. Finish it with lme run --resume, or pass --allow-partial.`;
}

function failureProblem(options: GateProblemsOptions, warnings: string[]): string | null {
  const { failed, summaryPath } = options;
  const allowErrors = options.allowErrors ?? 0;
  if (failed.count === undefined) {
    warnings.push(
      `${summaryPath} records no "errors" count (an older lme wrote it), so failed questions cannot be checked.`,
    );
    return null;
  }
  if (failed.count === 0) return null;
  const examples = failed.examples.length === 0 ? '' : `: ${failed.examples.join('; ')}`;
  const exclude = `the means exclude these ${failed.count} failed ${failed.count === 1 ? 'question' : 'questions'}`;
  if (failed.count <= allowErrors) {
    warnings.push(`${describeFailed(failed)} (--allow-errors ${allowErrors}), and ${exclude}${examples}.`);
    return null;
  }
  const allowed =
    allowErrors === 0 ? 'none allowed; see --allow-errors' : `--allow-errors allows ${allowErrors}`;
  return `${describeFailed(failed)} (${allowed}), and ${exclude}${examples}.`;
}

function zeroChecksProblem(options: GateProblemsOptions): string {
  const { summary, failed } = options;
  const why =
    Object.keys(summary.metrics.overall.metrics).length === 0
      ? (failed.count ?? 0) > 0
        ? 'the run has no finished question to measure'
        : 'the run records no metric'
      : 'the run and the baseline share no metric to compare';
  return `The gate evaluated 0 checks, so it shows nothing: ${why}.`;
}

function questionSetProblem(options: GateProblemsOptions, warnings: string[]): string | null {
  const { baseline } = options;
  if (baseline === undefined) return null;
  const baselineFailed = failedQuestions(baseline);
  if ((baselineFailed.count ?? 0) > 0) {
    warnings.push(
      `In the baseline ${baseline.path}, ${describeFailed(baselineFailed)}; its means exclude them.`,
    );
  }
  if (options.run !== undefined && baseline.run !== undefined) {
    const hash = sharedDatasetHash([options.run.config, baseline.run.config]);
    if (hash === 'differ') {
      warnings.push(
        `The run and the baseline ${baseline.path} read different dataset files (their SHA-256 differ).`,
      );
    }
  }
  const difference = questionSetDifference(
    { summary: options.summary, ...(options.run === undefined ? {} : { run: options.run }) },
    baseline,
  );
  if (difference === null) return null;
  if (options.allowSubset) {
    warnings.push(`The run's questions differ from the baseline's (--allow-subset): ${difference}.`);
    return null;
  }
  return `The run's questions differ from the baseline's: ${difference}; gate the same questions, or pass --allow-subset to compare the means anyway.`;
}

/**
 * Why a gate fails besides its checks, one sentence each, and what to warn about: failed questions
 * beyond `allowErrors` (the means silently exclude them, so a run whose hardest questions failed
 * would otherwise pass), no check evaluated, and a question set that differs from the baseline's
 * (unless `allowSubset`).
 */
export function gateProblems(options: GateProblemsOptions): { problems: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const problems = [
    partialProblem(options, warnings),
    failureProblem(options, warnings),
    options.checkCount === 0 ? zeroChecksProblem(options) : null,
    questionSetProblem(options, warnings),
  ].filter((problem): problem is string => problem !== null);
  return { problems, warnings };
}

import type { Provider } from '../../providers/provider.js';
import type { RunFolder } from '../files/run-folder.js';
import { providerAnswerStats } from '../outputs/provider-answer-stats.js';
import { runFingerprint } from '../outputs/run-fingerprint.js';
import { resultSettings } from '../outputs/run-manifest.js';
import { writeRunOutputs } from '../outputs/write-run-outputs.js';
import { type BenchmarkResult, type RunContext, RunInterruptedError } from '../run-context.js';
import { absentGoldWarning } from '../selection/absent-gold.js';
import { noQuestionsMessage } from '../selection/question-source.js';
import type { QuestionsOutcome } from './run-questions.js';
import type { StartedRun } from './start-run.js';

/**
 * The last phase, after the question loop: a failure or an interruption marks the run partial and
 * throws; else the outputs are written and config.json records the finish (or the `--max-cost` stop).
 */
export function finishRun(
  run: RunContext,
  started: StartedRun,
  options: {
    folder: RunFolder;
    provider: Provider;
    outcome: QuestionsOutcome;
    /** Answers the completion cache served from entries another endpoint made, per endpoint. */
    fromOtherEndpoints: Record<string, number>;
  },
): BenchmarkResult {
  const { config, datasetPath, hooks, signal } = run;
  const { dir, manifest, source } = started;
  const { folder, provider, outcome } = options;
  const { samples, spend, stopReason } = outcome;
  const markPartial = (reason: string) =>
    folder.writeJson('config.json', {
      ...manifest,
      partial: { reason, stopped_at: new Date().toISOString() },
    });
  if (outcome.failure) {
    try {
      markPartial(`stopped by an error: ${(outcome.failure.error as Error).message}`);
    } catch {
      // The disk that failed may refuse this too; config.json then records no finish time.
    }
    throw outcome.failure.error;
  }
  if (!stopReason && (outcome.interrupted || signal?.aborted)) {
    markPartial('interrupted by a signal (Ctrl-C or SIGTERM)');
    throw new RunInterruptedError(dir, samples.length);
  }
  if (outcome.selected === 0) throw new Error(noQuestionsMessage(datasetPath, run.sections.data));
  if (!stopReason) {
    manifest.dataset.sha256 = source.sha256();
    hooks.onDatasetRead?.({
      path: datasetPath,
      questions: samples.length,
      sha256: manifest.dataset.sha256,
    });
  }
  samples.sort((left, right) => left.position - right.position);
  const absentGold = absentGoldWarning(samples);
  if (absentGold) hooks.onWarning?.(absentGold);
  if (Object.keys(options.fromOtherEndpoints).length > 0) {
    manifest.cache = { answers_from_other_endpoints: options.fromOtherEndpoints };
    spend.fromOtherEndpoints = options.fromOtherEndpoints;
  }
  const providerAnswers = providerAnswerStats(samples);
  const result: BenchmarkResult = {
    ...writeRunOutputs(folder, manifest, samples, stopReason),
    spend,
    ...(providerAnswers ? { providerAnswers } : {}),
  };
  if (stopReason) {
    result.stoppedAtCost = spend.usd;
    result.stopReason = stopReason;
    markPartial(stopReason);
  } else {
    const reported = provider.report?.();
    const providerStats =
      reported || providerAnswers
        ? { ...reported, ...(providerAnswers ? { answers: providerAnswers } : {}) }
        : undefined;
    const fingerprint = runFingerprint({
      config: resultSettings(config),
      datasetSha256: manifest.dataset.sha256,
      samples,
      embedderUsed: typeof reported?.['embedderIdentity'] === 'string',
    });
    folder.writeJson('config.json', {
      ...manifest,
      ...(providerStats ? { provider_stats: providerStats } : {}),
      // A mixed run's rankings come from several setups: its fingerprint says so.
      fingerprint: manifest.mixed ? { ...fingerprint, mixed: true } : fingerprint,
      finished_at: new Date().toISOString(),
    });
  }
  hooks.onRunEnd?.(result);
  return result;
}

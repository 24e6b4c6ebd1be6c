import type { RunConfigInput } from '../config/run-config.js';
import { createProvider } from '../providers/create-provider.js';
import { openRunFolder } from './files/run-folder.js';
import { completedRunResult, isCompleteRun } from './outputs/completed-run.js';
import { finishRun } from './phases/finish-run.js';
import { prepareRun } from './phases/prepare-run.js';
import { runQuestions } from './phases/run-questions.js';
import { startRun } from './phases/start-run.js';
import { type BenchmarkResult, type RunDependencies, RunInterruptedError } from './run-context.js';

export { type RunManifest, readManifest } from './outputs/run-manifest.js';
export { type RunResult, writeRunOutputs } from './outputs/write-run-outputs.js';
export {
  type BenchmarkResult,
  type RunDependencies,
  type RunHooks,
  RunInterruptedError,
} from './run-context.js';
export { defaultRunId } from './run-id.js';
export type { LoadedRecords } from './selection/question-source.js';
export { selectionOf, selectRecords } from './selection/question-source.js';

/**
 * Runs one benchmark: checks everything it needs first (preflight), asks the provider to retrieve
 * for every selected question, grades each ranking, appends one line per question to
 * samples.jsonl as it finishes (so a crash loses nothing finished), then writes the summary, CSVs
 * and report. With `resume`, questions already in the folder's samples.jsonl are skipped and the
 * config and dataset file must match the stored ones. A start that fails leaves no folder behind.
 *
 * `requested` is the config as asked for (a preset's keys, a file's, flags'; a parsed config is
 * one too), resolved once when the run is prepared.
 *
 * The phases (run/phases/) share one run context (run/run-context.ts): prepare (preflight, the
 * dataset, errata, resume), start (servers, run id, manifest, QA stage, question source, the
 * folder claimed), the question loop (the worker pool), and finish (the outputs).
 */
export async function runBenchmark(
  requested: RunConfigInput,
  dependencies: RunDependencies = {},
): Promise<BenchmarkResult> {
  const run = await prepareRun(requested, dependencies);
  const { hooks } = run;
  if (run.resume && isCompleteRun(run.resume)) {
    // A resume of a finished run (a retried pod, a second click) writes nothing: its folder stays as it was.
    const result = completedRunResult(run.resume);
    hooks.onRunStart?.({ dir: result.dir, runId: run.resume.manifest.run_id });
    hooks.onNotice?.(
      `${result.dir} is already complete (${run.previous.length} questions, none to retry): nothing to do, its files are left as they are.`,
    );
    hooks.onRunEnd?.(result);
    return result;
  }
  // Everything that can fail at start happens before the folder is claimed.
  const provider =
    dependencies.provider ??
    createProvider(
      run.sections,
      () => run.runId,
      dependencies.resources,
      dependencies.environment ?? process.env,
      run.benchmark,
    );
  try {
    const started = await startRun(run, provider);
    const folder = openRunFolder(started.dir);
    try {
      if (run.resume) folder.rewriteSamples(run.previous);
      // The questions the run sets out to answer: `lme runs` shows a stopped run's done of total.
      if (started.source.total !== undefined) started.manifest.questions_total = started.source.total;
      folder.writeJson('config.json', started.manifest);
      hooks.onQuestionsSelected?.({
        path: run.datasetPath,
        questions: started.source.total,
        finished: run.previous.length,
      });
      const outcome = await runQuestions(run, started, folder, provider);
      // Cached vectors written before the figures are reported, so they count this run's whole cache work.
      if (!outcome.failure)
        await provider.flush?.().catch((error: unknown) => {
          hooks.onWarning?.(
            `writing the embedding cache failed (the run goes on; closing tries again): ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      return finishRun(run, started, {
        folder,
        provider,
        outcome,
        fromOtherEndpoints: started.qa?.answersFromOtherEndpoints() ?? {},
      });
    } finally {
      folder.close();
    }
  } catch (error) {
    // A run that failed before its first question leaves no folder that would block its id.
    if (run.claim?.created && run.counts.written === 0 && !(error instanceof RunInterruptedError))
      run.claim.discard();
    throw error;
  } finally {
    run.claim?.release();
    // A provider that fails to close (a vector store it cannot drop) costs a warning, never the
    // run's outcome: the results are written, and the exit code stays the one they call for.
    await provider.close?.().catch((error: unknown) => {
      hooks.onWarning?.(
        `closing the provider failed after the run (its results stand): ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}

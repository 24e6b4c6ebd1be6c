import pLimit from 'p-limit';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { Provider } from '../../providers/provider.js';
import type { Sample } from '../../results/sample.js';
import { addSample, type Spend, spendOf } from '../checks/spend.js';
import type { RunFolder } from '../files/run-folder.js';
import type { RunContext } from '../run-context.js';
import { openQuestionSource } from '../selection/question-source.js';
import { runQuestion } from './run-question.js';
import type { StartedRun } from './start-run.js';

/** How the question loop ended. */
export type QuestionsOutcome = {
  /** The finished samples, the resumed run's included, in finishing order. */
  samples: Sample[];
  spend: Spend;
  /** Questions the selection gave (finished ones included). */
  selected: number;
  interrupted: boolean;
  stopReason?: string;
  /** An error outside any question (a full disk writing samples.jsonl), which stops the run. */
  failure?: { error: unknown };
};

/**
 * The third phase, the worker pool over the selected questions (`--concurrency`): each question
 * not already finished is run, its sample appended as it finishes; starting stops on the abort
 * signal, an interrupted question, a failure, or `--max-cost`.
 */
export async function runQuestions(
  run: RunContext,
  started: StartedRun,
  folder: RunFolder,
  provider: Provider,
): Promise<QuestionsOutcome> {
  const { hooks, signal } = run;
  const { concurrency, explain, saveHits } = run.sections.run;
  const { maxCost, answers } = run.sections.qa;
  const { topK, granularity } = run.sections.retrieval;
  const settings = {
    topK,
    granularity,
    saveHits,
    convention: run.sections.data.convention,
    contextBudget: run.sections.stages.contextBudget,
    answers,
  };
  const { source, qa } = started;
  const applyErrata = run.errata.apply;
  const finished = new Set(run.previous.map((sample) => sample.question_id));
  const samples: Sample[] = [...run.previous];
  // The spend already recorded (a resumed run's earlier sessions) counts against --max-cost.
  const spend = spendOf(run.previous);
  const limit = pLimit(concurrency);
  const inFlight = new Set<Promise<void>>();
  const outcome: QuestionsOutcome = { samples, spend, selected: 0, interrupted: false };
  let done = 0;
  const budgetStop = (): string | undefined => {
    if (maxCost === undefined || !qa) return undefined;
    if (spend.missingUsage !== undefined) {
      return `the server reported no token usage for question ${spend.missingUsage}, so --max-cost cannot be enforced`;
    }
    if (spend.usd >= maxCost) return `estimated spend $${spend.usd.toFixed(4)} reached --max-cost`;
    return undefined;
  };
  const prepareNext = (published: LongMemEvalRecord) => {
    if (!provider.prepare) return;
    try {
      provider.prepare({ record: applyErrata(published).record, signal });
    } catch {
      // Errata that do not fit the question: runOne reports it when the question runs.
    }
  };
  const runOne = async ({ record: published, position }: { record: LongMemEvalRecord; position: number }) => {
    const { record, mark } = applyErrata(published);
    const sample = await runQuestion({
      record,
      position,
      provider,
      qa,
      benchmark: run.benchmark,
      config: settings,
      signal,
      onExplain: explain
        ? (line) => folder.appendText('explain.jsonl', `${JSON.stringify(line)}\n`)
        : undefined,
    });
    if (sample === undefined) {
      outcome.interrupted = true;
      return;
    }
    if (mark) sample.errata = mark;
    folder.appendSample(sample);
    run.counts.written++;
    samples.push(sample);
    addSample(spend, sample);
    done++;
    hooks.onQuestionEnd?.({
      sample,
      done: samples.length,
      total: source.total,
      fraction: source.fraction(done),
      note: provider.progress?.(),
    });
  };
  if (provider.plan) {
    // A provider sharing work between questions (one ingest per haystack) is told them all first,
    // from a second pass over the selection (streamed: records are not held).
    const planned = await openQuestionSource(run.datasetPath, run.sections.data, run.dependencies.dataset);
    await provider.plan({
      records: (async function* () {
        for await (const { record } of planned.items) {
          if (finished.has(record.question_id)) continue;
          try {
            yield applyErrata(record).record;
          } catch {
            yield record; // runOne reports errata that do not fit the question
          }
        }
      })(),
    });
  }
  try {
    for await (const item of source.items) {
      outcome.selected++;
      if (finished.has(item.record.question_id)) continue;
      if (inFlight.size >= concurrency) {
        // This question runs next: its haystack is indexed while the ones in flight finish.
        prepareNext(item.record);
        await Promise.race(inFlight);
      }
      if (signal?.aborted || outcome.interrupted || outcome.failure) break;
      // A provider that can answer no more (its bridge process died): said once, the run stops.
      outcome.stopReason = budgetStop() ?? provider.unavailable?.();
      if (outcome.stopReason) break;
      // Caught on its task, so a failure is never an unhandled rejection that kills the process.
      const task = limit(() => (outcome.failure ? undefined : runOne(item)))
        .catch((error: unknown) => {
          outcome.failure ??= { error };
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  } finally {
    await Promise.all(inFlight);
  }
  return outcome;
}

import type { ChatClient, ChatUsage } from '@lme/search-core';
import { sharedQaSettings } from '../benchmarks/benchmark-registry.js';
import { defaultJudge, judgeRubricDefinition } from './judge-rubrics.js';

export type {
  BinaryJudgeRubricDefinition,
  GradedJudgeRubricDefinition,
  JudgeItemReading,
  JudgeRecord,
  JudgeRubricDefinition,
  JudgeRubricItem,
} from '../benchmarks/judge-rubric.js';

import type {
  BinaryJudgeRubricDefinition,
  GradedJudgeRubricDefinition,
  JudgeRecord,
  JudgeRubricDefinition,
} from '../benchmarks/judge-rubric.js';

export type JudgeOptions = {
  client: ChatClient;
  /** Default `gpt-4o-2024-08-06`, the official judge. */
  model?: string;
  /**
   * Judge calls to vote over (k): the same request sent k times, each cached and single-flighted
   * under its own sample index (`sampleIndex`), so a rerun replays every vote and the first vote
   * shares the cache of a single-call run. Default 1, the official setting.
   */
  samples?: number;
  /** Sampling temperature of every call; default 0, the official setting. */
  temperature?: number;
  /** A name in `judgeRubrics()` (the benchmarks' judges). Default: the default benchmark's judge. */
  rubric?: string;
  /** The rubric itself, instead of looking `rubric` up (which then only names it in the id). */
  definition?: JudgeRubricDefinition;
};

export type JudgeGradeOptions = {
  record: JudgeRecord;
  hypothesis: string;
  signal?: AbortSignal;
};

export type JudgeVotes = {
  yes: number;
  no: number;
  /** Replies that were neither (see parseJudgeReply). */
  unparsed: number;
};

/**
 * How a judge scores: `binary`, a yes/no verdict (score 1 or 0, and the `label`); `graded`, a
 * number in [0, 1] from per-item scores (partial credit).
 */
export type JudgeScale = 'binary' | 'graded';

/** One graded item of a question: its score in [0, max] (null: the reply could not be read). */
export type JudgeItemScore = {
  name: string;
  score: number | null;
  /** The most the item can score, when not 1. */
  max?: number;
  /** The judge's reason, when its reply gives one. */
  reason?: string;
};

export type JudgeGradeResult = {
  /**
   * The question's score in [0, 1]: a yes/no judge gives 1 (yes) or 0 (no); a graded judge the
   * combination of its items. null a judge error (unparseable reply, tied votes, an unreadable
   * item). A failed call rejects.
   */
  score: number | null;
  scale: JudgeScale;
  /** Yes/no judges only: true correct, false wrong, null a judge error (`score === 1` when set). */
  label?: boolean | null;
  /** Graded judges: every item, in the rubric's order. */
  items?: JudgeItemScore[];
  /** Yes/no judges only: the votes. */
  votes?: JudgeVotes;
  /** The raw replies, one per call, for audit. */
  replies: string[];
  /**
   * Share of all votes (unreadable ones included) on the larger side, yes or no: the votes that
   * agree with `label` (half for a tie of two). 1 for a graded judge (one call per item).
   */
  agreement: number;
  /** Why `score` is null. */
  error?: string;
  /** The rubric does not grade this question (no call was made; score null, not an error). */
  excluded?: boolean;
  /** Tokens of the calls made this run (of all calls when every one came from the cache). */
  usage: ChatUsage;
  /** Every call came from the cache (or joined an identical one in flight). */
  cached: boolean;
  /** Wall time of the grading (the calls run at once). */
  latencyMs: number;
  model: string;
};

export type Judge = {
  /** e.g. `judge:gpt-4o-2024-08-06` or `judge:gpt-4o-2024-08-06:x3`. */
  readonly id: string;
  readonly model: string;
  grade(options: JudgeGradeOptions): Promise<JudgeGradeResult>;
};

/**
 * The official judge: one user message with the rubric for the question type, `temperature: 0`,
 * `max_tokens: 10`, `n: 1`. With k samples the same request goes out k times (at the configured
 * temperature, each under its own sample index) and the label is the majority of parseable
 * votes; a tie (including no parseable vote) is a judge error (label null: counted wrong by
 * `qa.accuracy_strict`, as officially, and left out of `qa.accuracy`). A failed call (HTTP error
 * after retries, timeout, a body with no choice) rejects: the question then fails with that
 * message in `sample.error`, and `--retry-errors` runs it again. (The official evaluate_qa.py
 * retries such calls until they succeed; it never grades a failed call.)
 */
export function createJudge(options: JudgeOptions): Judge {
  const model = options.model ?? sharedQaSettings().judgeModel;
  const samples = options.samples ?? 1;
  if (!Number.isInteger(samples) || samples < 1) {
    throw new Error(`Judge samples must be a positive integer; got ${samples}.`);
  }
  const temperature = options.temperature ?? 0;
  const rubricName = options.rubric ?? defaultJudge();
  const rubric = options.definition ?? judgeRubricDefinition(rubricName);
  if (rubric.kind === 'graded' && samples > 1) {
    throw new Error(
      `--judge-samples ${samples} needs a yes/no judge to vote; judge ${rubricName} scores with partial credit (use --judge-samples 1).`,
    );
  }
  const { client } = options;
  return {
    id: `judge:${model}${samples > 1 ? `:x${samples}` : ''}${temperature > 0 ? `:t${temperature}` : ''}${options.rubric && options.rubric !== defaultJudge() ? `:${options.rubric}` : ''}`,
    model,
    async grade({ record, hypothesis, signal }) {
      const scale: JudgeScale = rubric.kind === 'graded' ? 'graded' : 'binary';
      if (rubric.grades && !rubric.grades(record)) {
        const usage = { promptTokens: 0, completionTokens: 0 };
        return {
          score: null,
          scale,
          ...(scale === 'binary' ? { label: null, votes: { yes: 0, no: 0, unparsed: 0 } } : {}),
          excluded: true,
          replies: [],
          agreement: 0,
          usage,
          cached: true,
          latencyMs: 0,
          model,
        };
      }
      const ask = async (prompt: string, maxTokens: number | undefined) => {
        const request = {
          model,
          messages: [{ role: 'user' as const, content: prompt }],
          temperature,
          maxTokens: maxTokens ?? sharedQaSettings().judgeMaxTokens,
          n: 1,
          ...(signal ? { signal } : {}),
        };
        const started = performance.now();
        const results = await Promise.all(
          Array.from({ length: samples }, (_, index) =>
            client.complete(index === 0 ? request : { ...request, sampleIndex: index }),
          ),
        );
        return { results, elapsed: performance.now() - started };
      };
      if (rubric.kind === 'graded') return gradeItems(rubric, record, hypothesis, ask, model);
      return gradeBinary(rubric, record, hypothesis, ask, model, samples);
    },
  };
}

type Completion = Awaited<ReturnType<ChatClient['complete']>>;
type Ask = (
  prompt: string,
  maxTokens: number | undefined,
) => Promise<{ results: Completion[]; elapsed: number }>;

/** What every grading reports of its calls: tokens (of the calls made this run), cache, wall time. */
function callRecord(results: readonly Completion[]) {
  const cached = results.every((result) => result.cached);
  // Spend counts the calls made this run; a fully cached grading keeps its tokens for the record.
  const usage = (cached ? results : results.filter((result) => !result.cached)).reduce(
    (sum, result) => ({
      promptTokens: sum.promptTokens + result.usage.promptTokens,
      completionTokens: sum.completionTokens + result.usage.completionTokens,
    }),
    { promptTokens: 0, completionTokens: 0 },
  );
  return { usage, cached };
}

async function gradeBinary(
  rubric: BinaryJudgeRubricDefinition,
  record: JudgeRecord,
  hypothesis: string,
  ask: Ask,
  model: string,
  samples: number,
): Promise<JudgeGradeResult> {
  const { results, elapsed } = await ask(rubric.prompt(record, hypothesis), rubric.maxTokens);
  const latencyMs = samples === 1 ? results[0]!.latencyMs : elapsed;
  const replies = results.map((result) => result.texts[0] ?? result.text);
  const { usage, cached } = callRecord(results);
  const votes: JudgeVotes = { yes: 0, no: 0, unparsed: 0 };
  for (const reply of replies) {
    const vote = (rubric.parse ?? sharedQaSettings().parseJudgeReply)(reply);
    if (vote === true) votes.yes += 1;
    else if (vote === false) votes.no += 1;
    else votes.unparsed += 1;
  }
  const decided = votes.yes > votes.no ? true : votes.no > votes.yes ? false : null;
  const agreement = Math.max(votes.yes, votes.no) / replies.length;
  const base = { scale: 'binary' as const, votes, replies, agreement, usage, cached, latencyMs, model };
  if (decided !== null) return { score: decided ? 1 : 0, label: decided, ...base };
  return { score: null, label: null, error: describeUndecided(votes, replies), ...base };
}

/**
 * A graded rubric: every item asked at once (one call each, cached each), each reply read into a
 * score in [0, max]; the question's score combines them. Any unreadable item makes the score null
 * (a judge error) while every item read stays in `items`.
 */
async function gradeItems(
  rubric: GradedJudgeRubricDefinition,
  record: JudgeRecord,
  hypothesis: string,
  ask: Ask,
  model: string,
): Promise<JudgeGradeResult> {
  const asked = rubric.items(record, hypothesis);
  const base = { scale: 'graded' as const, agreement: 1, model };
  if (asked.length === 0) {
    return {
      score: null,
      items: [],
      error: `The judge rubric has no items for question ${record.question_id}.`,
      replies: [],
      usage: { promptTokens: 0, completionTokens: 0 },
      cached: true,
      latencyMs: 0,
      ...base,
    };
  }
  const started = performance.now();
  const answers = await Promise.all(asked.map((item) => ask(item.prompt, rubric.maxTokens)));
  const latencyMs = asked.length === 1 ? answers[0]!.results[0]!.latencyMs : performance.now() - started;
  const results = answers.map((answer) => answer.results[0]!);
  const replies = results.map((result) => result.texts[0] ?? result.text);
  const { usage, cached } = callRecord(results);
  const problems: string[] = [];
  const items: JudgeItemScore[] = asked.map((item, index) => {
    const max = item.max ?? 1;
    const reading = rubric.parseItem(replies[index]!, item);
    const valid =
      reading !== null && Number.isFinite(reading.score) && reading.score >= 0 && reading.score <= max;
    if (!valid) {
      problems.push(
        reading === null
          ? `item ${index + 1} reply could not be read: ${JSON.stringify(replies[index]!.slice(0, 80))}`
          : `item ${index + 1} scored ${reading.score}, outside [0, ${max}]`,
      );
    }
    return {
      name: item.name,
      score: valid ? reading.score : null,
      ...(max === 1 ? {} : { max }),
      ...(reading?.reason === undefined ? {} : { reason: reading.reason }),
    };
  });
  const calls = { replies, usage, cached, latencyMs, ...base };
  if (problems.length > 0) {
    return { score: null, items, error: `The judge ${problems.join('; ')}.`, ...calls };
  }
  const read = items.map((item) => ({ name: item.name, score: item.score!, max: item.max ?? 1 }));
  const score = rubric.combine
    ? rubric.combine(read)
    : read.reduce((sum, item) => sum + item.score / item.max, 0) / read.length;
  if (!(score >= 0 && score <= 1)) {
    return {
      score: null,
      items,
      error: `The judge rubric combined its items into ${score}, outside [0, 1].`,
      ...calls,
    };
  }
  return { score, items, ...calls };
}
function describeUndecided(votes: JudgeVotes, replies: readonly string[]): string {
  if (votes.yes === 0 && votes.no === 0) {
    const shown = replies.map((reply) => JSON.stringify(reply.slice(0, 80))).join(', ');
    return `The judge reply could not be read as yes or no: ${shown}.`;
  }
  return `The judge votes tied (${votes.yes} yes, ${votes.no} no, ${votes.unparsed} unreadable).`;
}

import type { ChatClient, ChatUsage } from '@lme/search-core';
import { parseJudgeReply } from '../benchmarks/longmemeval/longmemeval-rubric.js';
import { JUDGE_MAX_TOKENS, OFFICIAL_JUDGE_MODEL } from '../benchmarks/longmemeval/official-prompts.js';
import { defaultJudge, judgeRubricDefinition } from './judge-rubrics.js';

export type { JudgeRecord } from '../benchmarks/judge-rubric.js';
export { buildJudgePrompt, parseJudgeReply } from '../benchmarks/longmemeval/longmemeval-rubric.js';

import type { JudgeRecord } from '../benchmarks/judge-rubric.js';

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

export type JudgeGradeResult = {
  /** true correct, false wrong, null a judge error (unparseable reply, tied votes). A failed call rejects. */
  label: boolean | null;
  votes: JudgeVotes;
  /** The raw replies, one per call, for audit. */
  replies: string[];
  /**
   * Share of all votes (unreadable ones included) on the larger side, yes or no: the votes that
   * agree with `label` (half for a tie of two).
   */
  agreement: number;
  /** Why `label` is null. */
  error?: string;
  /** The rubric does not grade this question (no call was made; label null, not an error). */
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
  const model = options.model ?? OFFICIAL_JUDGE_MODEL;
  const samples = options.samples ?? 1;
  if (!Number.isInteger(samples) || samples < 1) {
    throw new Error(`Judge samples must be a positive integer; got ${samples}.`);
  }
  const temperature = options.temperature ?? 0;
  const rubric = judgeRubricDefinition(options.rubric ?? defaultJudge());
  const { client } = options;
  return {
    id: `judge:${model}${samples > 1 ? `:x${samples}` : ''}${temperature > 0 ? `:t${temperature}` : ''}${options.rubric && options.rubric !== defaultJudge() ? `:${options.rubric}` : ''}`,
    model,
    async grade({ record, hypothesis, signal }) {
      if (rubric.grades && !rubric.grades(record)) {
        const usage = { promptTokens: 0, completionTokens: 0 };
        const votes = { yes: 0, no: 0, unparsed: 0 };
        return {
          label: null,
          excluded: true,
          votes,
          replies: [],
          agreement: 0,
          usage,
          cached: true,
          latencyMs: 0,
          model,
        };
      }
      const request = {
        model,
        messages: [{ role: 'user' as const, content: rubric.prompt(record, hypothesis) }],
        temperature,
        maxTokens: rubric.maxTokens ?? JUDGE_MAX_TOKENS,
        n: 1,
        ...(signal ? { signal } : {}),
      };
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: samples }, (_, index) =>
          client.complete(index === 0 ? request : { ...request, sampleIndex: index }),
        ),
      );
      const latencyMs = samples === 1 ? results[0]!.latencyMs : performance.now() - started;
      const replies = results.map((result) => result.texts[0] ?? result.text);
      const cached = results.every((result) => result.cached);
      // Spend counts the calls made this run; a fully cached grading keeps its tokens for the record.
      const usage = (cached ? results : results.filter((result) => !result.cached)).reduce(
        (sum, result) => ({
          promptTokens: sum.promptTokens + result.usage.promptTokens,
          completionTokens: sum.completionTokens + result.usage.completionTokens,
        }),
        { promptTokens: 0, completionTokens: 0 },
      );
      const votes: JudgeVotes = { yes: 0, no: 0, unparsed: 0 };
      for (const reply of replies) {
        const vote = (rubric.parse ?? parseJudgeReply)(reply);
        if (vote === true) votes.yes += 1;
        else if (vote === false) votes.no += 1;
        else votes.unparsed += 1;
      }
      const decided = votes.yes > votes.no ? true : votes.no > votes.yes ? false : null;
      const agreement = Math.max(votes.yes, votes.no) / replies.length;
      const base = { votes, replies, agreement, usage, cached, latencyMs, model };
      if (decided !== null) return { label: decided, ...base };
      return { label: null, error: describeUndecided(votes, replies), ...base };
    },
  };
}

function describeUndecided(votes: JudgeVotes, replies: readonly string[]): string {
  if (votes.yes === 0 && votes.no === 0) {
    const shown = replies.map((reply) => JSON.stringify(reply.slice(0, 80))).join(', ');
    return `The judge reply could not be read as yes or no: ${shown}.`;
  }
  return `The judge votes tied (${votes.yes} yes, ${votes.no} no, ${votes.unparsed} unreadable).`;
}

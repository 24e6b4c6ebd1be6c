import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type ChatClient,
  createChatClient,
  estimateCost,
  loadPriceTable,
  type PriceTable,
} from '@lme/search-core';
import type { Benchmark } from '../../benchmarks/benchmark.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import { judges } from '../../config/run-shape.js';
import type { DataSection } from '../../config/sections/data-section.js';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { QaSection } from '../../config/sections/qa-section.js';
import type { RetrievalSection } from '../../config/sections/retrieval-section.js';
import type { RunSection } from '../../config/sections/run-section.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { createJudge, type Judge } from '../../qa/judge.js';
import { judgedSampleMetrics, QA_JUDGE_AGREEMENT } from '../../qa/qa-metrics.js';
import { createReader, type Reader } from '../../qa/reader.js';
import { rankedRounds, rankedSessions, sessionsAt } from '../../qa/reader-sessions.js';
import type { Sample } from '../../results/sample.js';
import { judgeOf, readerPromptOf } from '../benchmark-defaults.js';

export type QaResult = Pick<Sample, 'hypothesis' | 'judge' | 'usage'> & {
  metrics: Record<string, number>;
  /** Who wrote the hypothesis. */
  answerSource: 'reader' | 'provider';
  /** Milliseconds of lme's reader and judge calls (0 when served from the cache). */
  latency: { reader?: number; judge: number };
};

/**
 * Grades an answer to each question with the official judge: lme's reader's answer over the
 * question's history, or (`--answers provider`) the answer the provider returned itself.
 */
export type QaStage = {
  answer(options: {
    record: LongMemEvalRecord;
    /** The provider's whole haystack sessions for the reader (full-context, oracle), if it names them. */
    readerHaystackSessions?: readonly number[];
    rankedSessionIds: readonly string[];
    /** The retrieved documents' ids in rank order (`<session>_<n>` for turns): the turn-level context. */
    rankedIds?: readonly string[];
    /** The provider's own answer: what the judge grades with `--answers provider`. */
    providerAnswer?: string;
    signal?: AbortSignal;
  }): Promise<QaResult>;
  /** USD spent so far on calls not served from the cache (null parts: unpriced models). */
  spentUsd(): number;
  /** Answers the completion cache served from entries another endpoint made, per endpoint. */
  answersFromOtherEndpoints(): Record<string, number>;
};

type QaRole = 'reader' | 'judge';

/** The HTTP requests each role sent for the question being answered (retries included). */
const questionRequests = new AsyncLocalStorage<Record<QaRole, number>>();

/**
 * `client` counting, for the question in flight, the requests each answer took: the client's own
 * count (retries included), else one per answer not served from the cache.
 */
function countingRequests(client: ChatClient, role: QaRole): ChatClient {
  return {
    id: client.id,
    async complete(request) {
      const result = await client.complete(request);
      const counts = questionRequests.getStore();
      if (counts) counts[role] += result.requests ?? (result.cached ? 0 : 1);
      return result;
    },
  };
}

/**
 * The QA stage of a run, or undefined when nothing is judged (no reader model, and not
 * `--answers provider`). API keys come from the environment only (OPENAI_API_KEY, or
 * LME_READER_API_KEY / LME_JUDGE_API_KEY per role) and are never stored.
 */
export async function createQaStage(
  config: QaSection &
    Pick<RunSection, 'cache' | 'cacheDir'> &
    Pick<DataSection, 'convention'> &
    Pick<RetrievalSection, 'granularity'>,
  environment: NodeJS.ProcessEnv = process.env,
  onWarning?: (message: string) => void,
  /** The run's benchmark: its per-question answer metrics (LoCoMo's official F1). */
  benchmark?: Benchmark,
): Promise<QaStage | undefined> {
  if (!judges(config)) return undefined;
  // Reader settings and the answer source were checked once, by preflight, before any work.
  // The cache root: the completion cache keeps its entries in `<cacheDir>/llm/`.
  const cacheDir = config.cache ? config.cacheDir : undefined;
  // The reader and the judge share the cache folder: its problem is told once.
  const warned = new Set<string>();
  const fromOtherEndpoints: Record<string, number> = {};
  const clientFor = (role: QaRole) =>
    countingRequests(
      createChatClient({
        ...resolveOpenAiEndpoint(config, role, environment),
        cacheDir,
        onWarning: (message) => {
          if (!warned.has(message)) onWarning?.(message);
          warned.add(message);
        },
        onCachedFromOtherEndpoint: (endpoint) => {
          fromOtherEndpoints[endpoint] = (fromOtherEndpoints[endpoint] ?? 0) + 1;
        },
      }),
      role,
    );
  const reader: Reader | undefined = config.readerModel
    ? createReader({
        client: clientFor('reader'),
        model: config.readerModel,
        prompt: readerPromptOf(config),
        historyFormat: config.historyFormat,
        userOnly: config.readerHistory === 'user',
        notes: config.readerNotes,
        ...(config.readerMaxTokens === undefined ? {} : { maxTokens: config.readerMaxTokens }),
      })
    : undefined;
  const judge: Judge = createJudge({
    client: clientFor('judge'),
    model: config.judgeModel,
    samples: config.judgeSamples,
    temperature: config.judgeTemperature,
    rubric: judgeOf(config),
  });
  const prices: PriceTable = await loadPriceTable();
  let spent = 0;
  const priced = (
    model: string,
    usage: { promptTokens: number; completionTokens: number },
    cached: boolean,
    requests: number,
  ) => {
    const cost = estimateCost(model, usage, prices).usd;
    if (!cached && cost !== null) spent += cost;
    return {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      cost_usd: cost,
      cached,
      requests,
    };
  };

  async function answerQuestion({
    record,
    readerHaystackSessions,
    rankedSessionIds,
    rankedIds,
    providerAnswer,
    signal,
  }: Parameters<QaStage['answer']>[0]): Promise<QaResult> {
    const requests = questionRequests.getStore() ?? { reader: 0, judge: 0 };
    const usage: QaResult['usage'] = {};
    const latency: QaResult['latency'] = { judge: 0 };
    let hypothesis: string;
    if (reader) {
      const topK = config.readerTopK;
      const sessions = readerHaystackSessions
        ? sessionsAt(record, readerHaystackSessions)
        : config.readerContext === 'turn'
          ? rankedRounds(record, rankedIds ?? [], { topK })
          : rankedSessions(record, rankedSessionIds, {
              topK,
              // Official flat-session: a session id held twice in the haystack is read twice.
              duplicates:
                config.convention === 'official' && config.granularity === 'session' ? 'official' : 'once',
            });
      const answer = await reader.answer({ record, sessions, signal });
      hypothesis = answer.hypothesis;
      usage.reader = priced(reader.model, answer.usage, answer.cached, requests.reader);
      latency.reader = answer.cached ? 0 : round(answer.latencyMs);
    } else {
      // Nothing to judge is a failed question, never a wrong answer.
      if (providerAnswer === undefined || providerAnswer.trim() === '') {
        throw new Error(
          `The provider returned ${providerAnswer === undefined ? 'no answer' : 'an empty answer'} to question ${record.question_id} (--answers provider judges the "answer" of its /v1/search reply)`,
        );
      }
      hypothesis = providerAnswer;
    }
    const grade = await judge.grade({ record, hypothesis, signal });
    latency.judge = grade.cached ? 0 : round(grade.latencyMs);
    usage.judge = priced(judge.model, grade.usage, grade.cached, requests.judge);
    // A question the rubric does not grade (locomo-llm: adversarial) gets no judge accuracy;
    // a LoCoMo question gets its official per-question F1 (qa.locomo_f1) whatever the judge.
    const metrics = {
      ...(grade.excluded ? {} : judgedSampleMetrics(grade.score, grade.scale)),
      ...(grade.excluded || config.judgeSamples === 1 ? {} : { [QA_JUDGE_AGREEMENT]: grade.agreement }),
      ...benchmark?.answerMetrics?.(record, hypothesis),
    };
    return {
      hypothesis,
      answerSource: reader ? 'reader' : 'provider',
      judge: grade.excluded
        ? null
        : {
            // A yes/no judge keeps its label (old readers, the official format) beside the score.
            ...(grade.scale === 'binary' ? { label: grade.label ?? null } : {}),
            score: grade.score,
            ...(grade.items ? { items: grade.items } : {}),
            ...(grade.error ? { error: grade.error } : {}),
            ...(config.judgeSamples > 1 && grade.votes ? { votes: grade.votes } : {}),
          },
      usage,
      metrics,
      latency,
    };
  }

  return {
    spentUsd: () => spent,
    answersFromOtherEndpoints: () => ({ ...fromOtherEndpoints }),
    answer(options) {
      return questionRequests.run({ reader: 0, judge: 0 }, () => answerQuestion(options));
    },
  };
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 1000) / 1000;
}

/**
 * Refuses reader settings the official script cannot run or lme has not built, in one sentence
 * naming the flags, before any question starts.
 */
export function checkReaderSettings(
  config: Pick<QaSection, 'readerNotes' | 'historyFormat' | 'readerContext' | 'readerHistory'> &
    Pick<ProviderSection, 'provider'> &
    Pick<RetrievalSection, 'granularity'>,
): void {
  if (config.readerNotes && config.historyFormat !== 'json') {
    throw new Error(
      '--reader-notes needs --history-format json: the official run_generation.py fails on nl with Chain-of-Note (it reads each note as a turn).',
    );
  }
  if (config.readerContext !== 'turn') return;
  if (!providerCapabilities(config.provider).ranks) {
    throw new Error(
      `--reader-context turn reads retrieved turns (official flat-turn); --provider ${config.provider} gives whole sessions (the official orig-turn/oracle-turn modes are not built).`,
    );
  }
  if (config.granularity !== 'turn') {
    throw new Error(
      '--reader-context turn needs turn retrieval (--granularity turn): it reads each retrieved turn with its round.',
    );
  }
  if (config.readerHistory === 'user') {
    throw new Error(
      '--reader-context turn cannot be combined with --reader-history user: the official run_generation.py fails on flat-turn with --useronly true.',
    );
  }
}

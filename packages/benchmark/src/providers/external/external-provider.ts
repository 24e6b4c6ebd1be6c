import { randomBytes } from 'node:crypto';
import type { Benchmark } from '../../benchmarks/benchmark.js';
import { buildCorpus, type Granularity, type IndexRoles } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { redact as redactRegistered } from '../../config/secrets.js';
import type { Provider, RetrievalOutcome } from '../provider.js';
import type { ExternalIngestResult, ExternalMemory } from './external-memory.js';
import { mapHits } from './map-hits.js';
import { haystackKey, type SentSession, sentSessions } from './sent-haystack.js';
import { createSharedNamespaces, type HaystackNamespace } from './shared-namespaces.js';

export type ExternalProviderOptions = {
  /** The provider id (`--provider`): the route name of its hits and the kind in messages. */
  name: string;
  granularity: Granularity;
  /** Which turns are sent, and graded: the same documents as the in-process pipeline. */
  indexRoles: IndexRoles;
  /** The run's benchmark, found once (how the documents are keyed); default: each record's. */
  benchmark?: Benchmark | undefined;
  /**
   * Hits asked of the system: the same budget every provider of a comparison is held to. Default:
   * every document of the haystack, as the in-process pipeline ranks them all.
   */
  topK?: number;
  /**
   * Namespace prefix (the run id, or a function giving it once the run has one: the default run id
   * names the server, known after its health reply); a random one by default. Namespace =
   * `<prefix>/<random>`, never derived from a question or session id.
   */
  namespacePrefix?: string | (() => string);
  /** Sessions per ingest call; default 100. */
  ingestBatchSize?: number;
  /** A namespace per question, never shared (a system that must start from an empty store). */
  freshPerQuestion?: boolean;
  /** How a search is named in messages (`POST <url>/v1/search`); default `<name> search`. */
  searchLabel?: string;
  /** Removes the system's own secrets from messages and stored text (registered secrets always are). */
  redact?: (text: string) => string;
  /** Random bytes for namespaces and session ids (tests inject a seeded source). */
  randomHex?: (bytes: number) => string;
  /** Milliseconds on a monotonic clock; default `performance.now`. */
  now?: () => number;
};

/** The outcome of one question, with the system's own answer when it gave one. */
export type ExternalRetrievalOutcome = RetrievalOutcome & { answer?: string };

export type ExternalProvider = Omit<Provider, 'retrieve'> & {
  retrieve(options: { record: LongMemEvalRecord; signal?: AbortSignal }): Promise<ExternalRetrievalOutcome>;
  /** The run's questions, before the first: each haystack is then ingested once and freed after its last. */
  plan(options: { records: AsyncIterable<LongMemEvalRecord> | Iterable<LongMemEvalRecord> }): Promise<void>;
};

/**
 * Any external memory system as a Provider. Per question: the haystack as sent (every session, the
 * turns of the sent roles) names a namespace shared by every question with the same haystack,
 * ingested once (reset, then batches of sessions) under opaque session ids; the question searches
 * it; the hits are mapped back onto the corpus `buildCorpus` cuts with the same granularity and
 * roles, so they are graded exactly as in-process rankings. The ingest's wall time (and usage, when
 * the system reports it) is charged to the question that ingested; the others are marked shared.
 * Every failure is thrown as one Error naming the question, with secrets redacted.
 */
export function createExternalProvider(
  memory: ExternalMemory,
  options: ExternalProviderOptions,
): ExternalProvider {
  const randomHex = options.randomHex ?? ((bytes: number) => randomBytes(bytes).toString('hex'));
  const now = options.now ?? (() => performance.now());
  const redact = (text: string) => redactRegistered(options.redact ? options.redact(text) : text);
  const randomPrefix = `lme-${randomHex(4)}`;
  const prefix = () => {
    const given = options.namespacePrefix;
    return (typeof given === 'function' ? given() : given) || randomPrefix;
  };
  const batchSize = options.ingestBatchSize ?? 100;
  const corpusOptions = { granularity: options.granularity, indexRoles: options.indexRoles };
  const searchLabel = options.searchLabel ?? `${options.name} search`;
  const usedNamespaces = new Set<string>();
  let fresh = 0;

  const namespaces = createSharedNamespaces<SentSession[]>({
    create(count) {
      let namespace: string;
      do namespace = `${prefix()}/${randomHex(6)}`;
      while (usedNamespaces.has(namespace));
      usedNamespaces.add(namespace);
      const sessionIds: string[] = [];
      const positions = new Map<string, number>();
      while (sessionIds.length < count) {
        const id = `s-${randomHex(5)}`;
        if (positions.has(id)) continue;
        positions.set(id, sessionIds.length);
        sessionIds.push(id);
      }
      return { namespace, sessionIds, positions };
    },
    async ingest(entry, sessions, signal) {
      const call = signal ? { signal } : {};
      const started = now();
      await memory.reset(entry.namespace, call);
      let usage: ExternalIngestResult['usage'];
      for (let start = 0; start < sessions.length; start += batchSize) {
        const batch = sessions
          .slice(start, start + batchSize)
          .map((session, offset) => ({ session_id: entry.sessionIds[start + offset]!, ...session }));
        const reply = await memory.ingest(entry.namespace, batch, call);
        if (reply.usage) usage = addUsage(usage, reply.usage);
      }
      return { ms: now() - started, ...(usage ? { usage } : {}) };
    },
    free: (entry) => memory.reset(entry.namespace),
  });

  const keyOf = (sessions: readonly SentSession[]) =>
    options.freshPerQuestion ? `fresh-${fresh++}` : haystackKey(sessions);

  return {
    id: `${options.name}:${memory.identity().url}`,
    identity: () => memory.identity(),
    preflight: (preflightOptions) => memory.preflight(preflightOptions),
    async plan({ records }) {
      if (options.freshPerQuestion) return;
      const keys: string[] = [];
      for await (const record of records) keys.push(haystackKey(sentSessions(record, options.indexRoles)));
      namespaces.plan(keys);
    },
    async retrieve({ record, signal }) {
      const context = `question ${record.question_id}: `;
      try {
        return await retrieveOne(record, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        // Whatever the system sent back is quoted in messages: never let it carry a secret.
        const message = (error as Error).message;
        throw new Error(redact(message.startsWith(context) ? message : `${context}${message}`));
      }
    },
    unavailable: () => memory.unavailable?.(),
    async close() {
      try {
        await namespaces.close();
      } finally {
        await memory.close?.();
      }
    },
  };

  async function retrieveOne(
    record: LongMemEvalRecord,
    signal: AbortSignal | undefined,
  ): Promise<ExternalRetrievalOutcome> {
    const corpus = buildCorpus(record, corpusOptions, options.benchmark);
    const topK = options.topK ?? Math.max(1, corpus.documents.length);
    const sessions = sentSessions(record, options.indexRoles);
    const key = keyOf(sessions);
    try {
      const { entry, charge } = await namespaces.acquire(key, sessions, signal);
      const searched = now();
      const reply = await memory.search(
        {
          namespace: entry.namespace,
          query: record.question,
          ...(record.question_date === undefined ? {} : { queryDate: record.question_date }),
          topK,
          granularity: options.granularity,
        },
        signal ? { signal } : {},
      );
      const retrieveMs = now() - searched;
      const mapped = mapHits(
        toDatasetIds(reply.hits.slice(0, topK), entry, record, options.granularity, searchLabel),
        corpus,
        options.granularity,
        { context: '', request: searchLabel, route: options.name },
      );
      const outcome: ExternalRetrievalOutcome = {
        corpus,
        // The budget is top_k documents: a repeated session id can map one hit onto two.
        ranking: mapped.ranking.slice(0, topK),
        hits: mapped.hits.slice(0, topK),
        timings: { indexMs: charge.ms, retrieveMs },
        ingest: charge,
      };
      // The system's answer is stored with the results: a system echoing a secret must not put it there.
      if (reply.answer !== undefined) outcome.answer = redact(reply.answer);
      const { context: answerContext, usage, latency_ms: latencyMs } = reply;
      if (answerContext !== undefined || usage !== undefined || latencyMs !== undefined) {
        outcome.answerReport = {
          ...(answerContext === undefined ? {} : { context: redact(answerContext) }),
          ...(usage === undefined
            ? {}
            : { usage: { ...usage, ...(usage.model ? { model: redact(usage.model) } : {}) } }),
          ...(latencyMs === undefined ? {} : { latencyMs }),
        };
      }
      return outcome;
    } finally {
      // Best effort: a failed clean-up must not fail the question.
      await namespaces.release(key);
    }
  }
}

/**
 * The system's hits with the opaque session ids it was sent replaced by the question's own session
 * ids (by haystack position). A hit naming an id it was not sent, or a turn hit without
 * `turn_index`, fails in one sentence naming what it returned.
 */
function toDatasetIds(
  hits: readonly { session_id: string; turn_index?: number; score: number }[],
  entry: HaystackNamespace,
  record: LongMemEvalRecord,
  granularity: Granularity,
  request: string,
) {
  return hits.map((hit, position) => {
    if (granularity === 'turn' && hit.turn_index === undefined) {
      throw new Error(
        `${request} returned hit ${position} (session_id "${hit.session_id}") without turn_index; turn granularity needs one.`,
      );
    }
    const index = entry.positions.get(hit.session_id);
    if (index === undefined) {
      const what =
        granularity === 'session'
          ? `session_id "${hit.session_id}"`
          : `session_id "${hit.session_id}" turn_index ${hit.turn_index}`;
      throw new Error(
        `${request} returned ${what}, which is not ${granularity === 'session' ? 'a session' : 'an indexed turn'} of the question's haystack.`,
      );
    }
    return { ...hit, session_id: record.haystack_session_ids[index]! };
  });
}

function addUsage(
  total: ExternalIngestResult['usage'],
  next: NonNullable<ExternalIngestResult['usage']>,
): NonNullable<ExternalIngestResult['usage']> {
  if (!total) return { ...next };
  const cost =
    total.cost_usd === undefined && next.cost_usd === undefined
      ? undefined
      : (total.cost_usd ?? 0) + (next.cost_usd ?? 0);
  return {
    prompt_tokens: total.prompt_tokens + next.prompt_tokens,
    completion_tokens: total.completion_tokens + next.completion_tokens,
    ...(cost === undefined ? {} : { cost_usd: cost }),
    ...((next.model ?? total.model) ? { model: (next.model ?? total.model)! } : {}),
  };
}

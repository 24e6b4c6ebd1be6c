import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RetrievalHit } from '@lme/search-core';
import { chatCompletionReply, createHashingEmbedder, startOpenAiWireServer } from '@lme/search-core/testing';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCorpus } from '../../benchmarks/build-corpus.js';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { type RunConfig, type RunConfigInput, resultKeyDifferences } from '../../config/run-config.js';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { runBenchmark } from '../../run/run-benchmark.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig, samplesOf } from '../../testing/sample-run.js';
import type { RetrievalOutcome } from '../provider.js';
import { createPipelineProvider } from './pipeline-provider.js';

let records: LongMemEvalRecord[];
const record = (id: string) => records.find((candidate) => candidate.question_id === id)!;

beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});

/** One question through the pipeline a config describes, with a hashing embedder (no model). */
async function retrieve(
  overrides: RunConfigInput,
  question: LongMemEvalRecord,
  embedder = createHashingEmbedder(),
): Promise<RetrievalOutcome> {
  const provider = createPipelineProvider(groupConfig(sampleConfig({ cache: false, ...overrides })), {
    embedder,
  });
  try {
    return await provider.retrieve({ record: question });
  } finally {
    await provider.close?.();
  }
}

const ids = (outcome: RetrievalOutcome, count = 10) =>
  outcome.ranking.slice(0, count).map((document) => outcome.corpus.documents[document]!.id);
const hybridTurns = { retriever: 'hybrid', granularity: 'turn' } as const;

describe('pipeline stages on the committed sample', () => {
  it('MMR reorders the top of the candidate pool and keeps the pool', async () => {
    const question = record('6d550036');
    const plain = await retrieve(hybridTurns, question);
    const diverse = await retrieve({ ...hybridTurns, mmr: true }, question);
    expect(ids(diverse)).not.toEqual(ids(plain));
    expect(new Set(ids(diverse, 40))).toEqual(new Set(ids(plain, 40)));
    expect(diverse.hits.slice(0, 10).map((hit) => hit.routes['mmr']!.rank)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(ids(diverse, 1)).toEqual(ids(plain, 1));
    // Below the pool the base order is untouched.
    expect(ids(diverse, 300).slice(40)).toEqual(ids(plain, 300).slice(40));
  });

  it('dedup merges a turn said twice into one hit that records the other', async () => {
    const base = record('6d550036');
    const corpus = buildCorpus(base, { granularity: 'turn', indexRoles: 'user' });
    const seen = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (const document of corpus.documents) {
      const first = seen.get(document.text);
      if (first && document.text.length > 40) pair ??= [first, document.id];
      seen.set(document.text, document.id);
    }
    expect(pair).toBeDefined();
    const [kept, copy] = pair!;
    const question = { ...base, question: corpus.documents.find((document) => document.id === kept)!.text };
    const plain = await retrieve(hybridTurns, question);
    expect(ids(plain, 2).sort()).toEqual([kept, copy].sort());
    const merged = await retrieve({ ...hybridTurns, dedup: true }, question);
    expect(ids(merged, 1)).toEqual([kept]);
    expect(ids(merged, 40)).not.toContain(copy);
    expect((merged.hits[0] as RetrievalHit & { mergedIds?: string[] }).mergedIds).toContain(copy);
    expect(merged.ranking.length).toBeLessThan(plain.ranking.length);
  });

  it('multi-signal adds the signal routes and reads the time span of the question', async () => {
    const question = record('88432d0a_abs'); // "… in the past two weeks?"
    const outcome = await retrieve({ ...hybridTurns, multiSignal: true, explain: true }, question);
    for (const hit of outcome.hits.slice(0, 40)) {
      for (const signal of ['semantic', 'entity', 'temporal', 'recency'])
        expect(hit.routes[`signal_${signal}`]!.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBe(hit.routes['multi_signal']!.score);
    }
    const weights = outcome.explain!.weights as {
      signals: { query_class: string; temporal_scope: { rule: string } };
    };
    expect(weights.signals.query_class).toBe('analytical');
    expect(weights.signals.temporal_scope.rule).toBe('rolling');
    // A turn of a session inside the two weeks before the question has temporal relevance 1.
    const inside = outcome.hits.slice(0, 40).filter((hit) => hit.routes['signal_temporal']!.score === 1);
    expect(inside.length).toBeGreaterThan(0);
    const plain = await retrieve(hybridTurns, question);
    expect(plain.hits[0]!.routes['signal_temporal']).toBeUndefined();
  });

  it('indexes the contextual text but reports the original documents', async () => {
    const question = record('e47becba');
    const embedder = createHashingEmbedder();
    const outcome = await retrieve(
      { granularity: 'turn', contextual: 'template', explain: true, retriever: 'hybrid' },
      question,
      embedder,
    );
    const corpus = buildCorpus(question, { granularity: 'turn', indexRoles: 'user' });
    expect(outcome.corpus.documents).toEqual(corpus.documents);
    expect(ids(outcome, 3)).toEqual(outcome.hits.slice(0, 3).map((hit) => hit.id));
    // The embedder saw the contextualized turns (default: the dense route embeds the context too).
    expect(embedder.documents).toHaveLength(corpus.documents.length);
    expect(embedder.documents[0]).toMatch(/^\[user · session 20\d\d\/\d\d\/\d\d \(\w+\) · topics: .+\]\n/);
    expect(embedder.documents[0]!.endsWith(corpus.documents[0]!.text)).toBe(true);
    const explained = (outcome.explain!.hits as { id: string; context?: string }[])[0]!;
    expect(explained.context).toMatch(/^\[user · session 2023\/05\/\d\d \(\w+\) · topics: /);

    // BM25 reads the context line: "topics" is in every contextualized turn.
    const byTopics = { ...question, question: 'topics' };
    const lexical = await retrieve({ granularity: 'turn', contextual: 'template' }, byTopics);
    expect(lexical.hits.every((hit) => hit.score > 0)).toBe(true);
    const bare = await retrieve({ granularity: 'turn' }, byTopics);
    expect(bare.hits.filter((hit) => hit.score > 0).length).toBeLessThan(corpus.documents.length / 10);

    // --no-contextual-dense: the dense route embeds the original text.
    const originals = createHashingEmbedder();
    await retrieve({ ...hybridTurns, contextual: 'template', contextualDense: false }, question, originals);
    expect(originals.documents).toEqual(corpus.documents.map((document) => document.text));
  });

  it('asks a chat model for each chunk context with --contextual llm, indexing a failed chunk bare', async () => {
    const question = record('e47becba');
    const corpus = buildCorpus(question, { granularity: 'turn', indexRoles: 'user' });
    const evidence = corpus.documents.find((document) => document.id === 'answer_280352e9_5')!;
    const server = await startOpenAiWireServer({
      '/chat/completions': (request, index) => {
        const prompt = (request.body as { messages: { content: string }[] }).messages[0]!.content;
        if (prompt.includes(`<chunk>\n${evidence.text}\n</chunk>`))
          return { status: 400, json: { error: { message: 'bad request', type: 'invalid_request_error' } } };
        return chatCompletionReply(`CTX ${index}`);
      },
    });
    try {
      const config = sampleConfig({
        granularity: 'turn',
        contextual: 'llm',
        contextualModel: 'test-model',
        baseUrl: server.baseUrl,
        maxRetries: 0,
        cache: false,
        explain: true,
      });
      const provider = createPipelineProvider(groupConfig(config), {}, { OPENAI_API_KEY: 'sk-test' });
      const outcome = await provider.retrieve({ record: question });
      const count = corpus.documents.length;
      // One request per distinct prompt: a turn repeated with the same conversation around it is
      // asked once (single-flight).
      const asked = server.requests.length;
      expect(asked).toBeLessThanOrEqual(count);
      expect(asked).toBeGreaterThan(count - 5);
      expect((server.requests[0]!.body as { model: string }).model).toBe('test-model');
      const explained = outcome.explain!.hits as { id: string; context?: string }[];
      expect(explained.filter((hit) => hit.context?.startsWith('CTX ')).length).toBeGreaterThan(30);
      expect(explained.find((hit) => hit.id === evidence.id)?.context).toBeUndefined();
      expect(outcome.corpus.documents).toEqual(corpus.documents);
      expect((outcome.explain!.counts as { contextual_failed: number }).contextual_failed).toBe(1);
      expect(provider.report?.()).toMatchObject({
        contextual: {
          chunks: count,
          failures: 1,
          promptTokens: 100 * (asked - 1),
          completionTokens: 5 * (asked - 1),
        },
      });
      await provider.close?.();
    } finally {
      await server.close();
    }
  });

  it('indexes rounds (a user turn and its reply) under the user turn id', async () => {
    const question = record('7161e7e2'); // single-session-assistant: the evidence is an assistant turn
    const rounds = buildCorpus(question, { granularity: 'turn', indexRoles: 'user', chunkUnit: 'round' });
    const turns = buildCorpus(question, { granularity: 'turn', indexRoles: 'user' });
    expect(rounds.documents.map((document) => document.id)).toEqual(
      turns.documents.map((document) => document.id),
    );
    expect(rounds.documents.every((document) => document.role === 'mixed')).toBe(true);
    expect(rounds.evidence.filter(Boolean).length).toBe(1);
    expect(turns.evidence.filter(Boolean).length).toBe(0);
    const outcome = await retrieve(
      { chunkUnit: 'round', contextual: 'template', convention: 'evidence' },
      question,
    );
    expect(outcome.corpus.documents[0]!.text).toBe(rounds.documents[0]!.text);
    expect(outcome.hits[0]!.id).toMatch(/_\d+$/);
  });

  it('multi-route recall ranks turns and sessions session-first', async () => {
    const question = record('6d550036');
    const outcome = await retrieve(
      { retriever: 'multi-route', routes: 'hybrid', sessionFirst: true, explain: true },
      question,
    );
    expect(outcome.sessionRanking!.length).toBeGreaterThan(0);
    expect(outcome.ranking.length).toBeLessThanOrEqual(40);
    expect(Object.keys(outcome.hits[0]!.routes)).toEqual(
      expect.arrayContaining(['turn_bm25', 'turn_dense', 'rrf', 'session_first']),
    );
    const sources = outcome.explain!.sources as Record<string, number>;
    expect(Object.keys(sources).sort()).toEqual(['turn_bm25', 'turn_dense']);
  });

  it('--time-boost lifts the sessions dated inside the span the question names', async () => {
    const base = record('6d550036');
    // Its 47 sessions are dated 2023/05/20 to 05/30; "three days ago" on 05/26 is 05/23 (four sessions).
    const question = {
      ...base,
      question: 'What did we talk about three days ago?',
      question_date: '2023/05/26 (Fri) 10:00',
    };
    const expected = base.haystack_session_ids.filter((_, index) =>
      base.haystack_dates[index]!.startsWith('2023/05/23'),
    );
    expect(expected).toHaveLength(4);
    const config = { retriever: 'bm25', granularity: 'session' } as const;
    const plain = await retrieve(config, question);
    expect(plain.hits[0]!.routes['time']).toBeUndefined();
    expect(new Set(ids(plain, 4))).not.toEqual(new Set(expected));
    // Weight 1 lifts every session in the span by the whole spread: all of them above the rest.
    const boosted = await retrieve({ ...config, timeBoost: 1, explain: true }, question);
    expect(new Set(ids(boosted, 4))).toEqual(new Set(expected));
    expect(boosted.hits.slice(0, 5).map((hit) => hit.routes['time']!.score)).toEqual([1, 1, 1, 1, 0]);
    // explain.jsonl shows the span the boost read, and does not count the prior as a source.
    expect(boosted.explain!.weights).toMatchObject({
      time_boost: { weight: 1, span: { expression: 'about three days ago' } },
    });
    expect(boosted.explain!.sources).not.toHaveProperty('time');
  });

  it('keeps embedding time out of the retrieval latency', async () => {
    // A fake clock that moves only while the embedder works: each embedding call takes delayMs.
    // Indexing then takes whole multiples of delayMs, and retrieval, whose one query embedding
    // is taken out, takes no time at all.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const delayMs = 1000;
      const inner = createHashingEmbedder();
      const slow = {
        ...inner,
        embedDocuments: async (options: { texts: readonly string[] }) => {
          vi.advanceTimersByTime(delayMs);
          return inner.embedDocuments(options);
        },
        embedQuery: async (options: { text: string }) => {
          vi.advanceTimersByTime(delayMs);
          return inner.embedQuery(options);
        },
      };
      const outcome = await retrieve({ ...hybridTurns, mmr: true, dedup: true }, record('e47becba'), slow);
      expect(inner.queries).toHaveLength(1);
      expect(outcome.timings.indexMs).toBeGreaterThanOrEqual(delayMs);
      expect(outcome.timings.indexMs % delayMs).toBe(0);
      expect(outcome.timings.retrieveMs).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('explain.jsonl and context.evidence_recall', () => {
  it('writes one explain line per question with routes, decisions, weights and timings', async () => {
    const config = sampleConfig({
      ...hybridTurns,
      dedup: true,
      multiSignal: true,
      mmr: true,
      explain: true,
      contextBudget: 2000,
      cache: false,
      runId: 'explained',
    });
    const provider = createPipelineProvider(groupConfig(config), { embedder: createHashingEmbedder() });
    const { dir } = await runBenchmark(config, { argv: [], provider });
    const lines = readFileSync(join(dir, 'explain.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const samples = samplesOf(dir);
    expect(lines.map((line) => line.question_id)).toEqual(samples.map((sample) => sample.question_id));
    for (const [index, line] of lines.entries()) {
      expect(line.stages).toEqual(['dedup', 'multi_signal', 'mmr']);
      expect(Object.keys(line.timings_ms)).toEqual(
        expect.arrayContaining([
          'index',
          'embed_index',
          'embed_query',
          'retrieve',
          'dedup',
          'multi_signal',
          'mmr',
        ]),
      );
      expect(line.counts.pool).toBe(40);
      expect(line.counts.mmr_selected).toBe(10);
      expect(line.weights.fusion).toEqual({ kind: 'weighted', bm25: 0.3, dense: 0.7 });
      expect(line.weights.mmr).toMatchObject({ lambda: 0.78, duplicate_threshold: 0.94, k: 10 });
      expect(line.weights.dedup).toEqual({ threshold: 0.95 });
      expect(
        Object.values(line.weights.signals.weights as Record<string, number>).reduce((a, b) => a + b),
      ).toBeCloseTo(1);
      const sources = line.sources as Record<string, number>;
      expect(sources.bm25! + sources.dense!).toBeGreaterThan(0);
      const hit = line.hits[0];
      expect(hit).toMatchObject({ rank: 1, id: samples[index]!.hits[0]!.id });
      expect(Object.keys(hit.routes).sort()).toEqual(['bm25', 'dense']);
      expect(Object.keys(hit.signals).sort()).toEqual([
        'combined',
        'entity',
        'recency',
        'semantic',
        'temporal',
      ]);
      expect(hit.mmr.selected_at).toBe(1);
      expect(typeof hit.fused_score).toBe('number');
      expect(line.removed_duplicates.length).toBe(
        line.counts.removed_duplicates > 0 ? line.removed_duplicates.length : 0,
      );
      expect(line.context.budget_tokens).toBe(2000);
      expect(line.context.evidence_recall).toBe(samples[index]!.metrics['context.evidence_recall'] ?? null);
    }
    // The sample repeats some user turns inside a haystack: dedup removed at least one somewhere.
    expect(lines.some((line) => line.removed_duplicates.length > 0)).toBe(true);
  });

  it('measures the share of evidence turns inside the packed context (0a995998, hand-checked)', async () => {
    // BM25 over user turns ranks two of the three evidence turns first: answer_afa9873b_1_5
    // (68 o200k tokens) and answer_afa9873b_3_7 (47 tokens); the third, answer_afa9873b_2_11, is 11th.
    const recallAt = async (budget: number) => {
      const config = sampleConfig({ granularity: 'turn', questionIds: ['0a995998'], contextBudget: budget });
      const { dir } = await runBenchmark(config, { argv: [] });
      return samplesOf(dir)[0]!.metrics['context.evidence_recall'];
    };
    expect(await recallAt(114)).toBeCloseTo(1 / 3, 12); // 68 + 47 > 114: only the first fits
    expect(await recallAt(115)).toBeCloseTo(2 / 3, 12);
    expect(await recallAt(2000)).toBe(1);
  });

  it('rejects session-first without multi-route and multi-route with session-aware', () => {
    expect(() => parseRunConfig({ sessionFirst: true })).toThrow(
      'Invalid configuration: --session-first needs --retriever multi-route, not --retriever bm25.',
    );
    expect(() => parseRunConfig({ multiRoute: true, sessionAware: true })).toThrow(/cannot be combined/);
    expect(parseRunConfig({ chunkUnit: 'round' }).granularity).toBe('turn');
    expect(parseRunConfig({ retriever: 'multi-route' }).granularity).toBe('turn');
    expect(() => parseRunConfig({ retriever: 'multi-route', chunkUnit: 'session' })).toThrow(
      'Invalid configuration: --chunk-unit session cannot be combined with --retriever multi-route: it ranks turns (or rounds with --chunk-unit round), not whole sessions.',
    );
  });

  it('lets a run stored before the stage keys existed resume with them at their defaults', () => {
    const current = parseRunConfig({});
    const { mmr, dedup, multiSignal, contextual, contextBudget, ...older } = current;
    expect(resultKeyDifferences(older as RunConfig, current)).toEqual([]);
    expect(resultKeyDifferences(older as RunConfig, parseRunConfig({ mmr: true }))).toEqual(['mmr']);
  });
});

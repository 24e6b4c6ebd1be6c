import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfigInput } from '../config/run-config.js';
import { groupConfig } from '../config/run-sections.js';
import { createHttpProvider } from '../providers/http/http-provider.js';
import { createPipelineProvider } from '../providers/pipeline/pipeline-provider.js';
import type { Provider } from '../providers/provider.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { withoutLatency } from '../testing/without-latency.js';
import { type RunningServer, serve } from './serve.js';

const config = (overrides: RunConfigInput = {}) => sampleConfig(overrides, 'lme-serve-');

/** The in-process pipeline held to the same budget as the http provider: its first `topK` documents. */
function withBudget(provider: Provider, topK: number): Provider {
  return {
    id: provider.id,
    async retrieve(options) {
      const outcome = await provider.retrieve(options);
      return { ...outcome, ranking: outcome.ranking.slice(0, topK), hits: outcome.hits.slice(0, topK) };
    },
  };
}

const TOP_K = 50;

describe('lme serve behind the http provider', () => {
  // With no top_k the server ranks every document, as the in-process pipeline does. With one, both
  // are held to the same budget (turn runs grade sessions at a cutoff widened until it covers k
  // distinct sessions, which can reach past the 50th turn, so the budget matters there).
  it.each([
    { granularity: 'session', tokenizer: 'words', indexRoles: 'user', topK: undefined },
    { granularity: 'turn', tokenizer: 'official', indexRoles: 'all', topK: undefined },
    { granularity: 'turn', tokenizer: 'words', indexRoles: 'user', topK: TOP_K },
  ] as const)(
    'gives the in-process metrics for every sample question ($granularity, $tokenizer, $indexRoles, top_k $topK)',
    async ({ topK, ...pipeline }) => {
      const localConfig = config({ ...pipeline, runId: 'local' });
      const local = await runBenchmark(localConfig, {
        argv: [],
        provider:
          topK === undefined ? undefined : withBudget(createPipelineProvider(groupConfig(localConfig)), topK),
      });
      const server = await serve({ sections: groupConfig(config(pipeline)), port: 0 });
      try {
        const provider = createHttpProvider({
          url: server.url,
          timeoutMs: 30_000,
          maxRetries: 0,
          topK,
          granularity: pipeline.granularity,
          indexRoles: pipeline.indexRoles,
        });
        const remote = await runBenchmark(config({ ...pipeline, runId: 'remote' }), { argv: [], provider });
        const localSamples = samplesOf(local.dir);
        const remoteSamples = samplesOf(remote.dir);
        expect(remoteSamples.map((sample) => sample.error)).toEqual(localSamples.map(() => null));
        expect(remoteSamples).toHaveLength(22);
        if (topK !== undefined)
          expect(remoteSamples.every((sample) => sample.hits.length <= topK)).toBe(true);
        for (const [index, sample] of remoteSamples.entries()) {
          const twin = localSamples[index]!;
          expect(sample.question_id).toBe(twin.question_id);
          expect(sample.metrics).toEqual(twin.metrics);
          expect(sample.hits.map((hit) => [hit.id, hit.score])).toEqual(
            twin.hits.slice(0, sample.hits.length).map((hit) => [hit.id, hit.score]),
          );
        }
        expect(withoutLatency(remote.summary.metrics)).toEqual(withoutLatency(local.summary.metrics));
      } finally {
        await server.close();
      }
    },
  );
});

type ResponseBody = {
  hits: { session_id: string; turn_index?: number; score: number }[];
  error: { message: string };
};

describe('serve protocol', () => {
  let server: RunningServer;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as ResponseBody };
  };

  beforeAll(async () => {
    server = await serve({
      sections: groupConfig(config({ granularity: 'turn' })),
      port: 0,
      maxNamespaces: 2,
    });
  });
  afterAll(() => server.close());

  it('answers health, and ranks ingested turns with their session ids and turn indices', async () => {
    const health = await (await fetch(`${server.url}/v1/health`)).json();
    expect(health).toMatchObject({ status: 'ok', retriever: 'bm25' });
    expect((await post('/v1/reset', { namespace: 'a' })).status).toBe(200);
    const sessions = [
      {
        session_id: 's1',
        date: '2023/05/30 (Tue) 23:40',
        turns: [
          { role: 'user', content: 'I adopted a greyhound called Pepper', turn_index: 0 },
          { role: 'user', content: 'my car needs new tyres', turn_index: 2 },
        ],
      },
      {
        session_id: 's2',
        date: '2023/06/01 (Thu) 10:00',
        turns: [{ role: 'user', content: 'the weather is nice', turn_index: 4 }],
      },
      {
        session_id: 's3',
        date: '2023/06/02 (Fri) 10:00',
        turns: [{ role: 'user', content: 'we went hiking in the mountains', turn_index: 0 }],
      },
    ];
    expect((await post('/v1/ingest', { namespace: 'a', sessions })).body).toEqual({ ok: true, sessions: 3 });
    const turns = await post('/v1/search', { namespace: 'a', query: 'greyhound Pepper', top_k: 2 });
    expect(turns.body.hits[0]).toMatchObject({ session_id: 's1', turn_index: 0 });
    expect(turns.body.hits).toHaveLength(2);
    const bySession = await post('/v1/search', {
      namespace: 'a',
      query: 'weather',
      top_k: 5,
      granularity: 'session',
    });
    expect(bySession.body.hits.map((hit) => hit.session_id)).toEqual(['s2', 's1', 's3']);
    expect(bySession.body.hits[0]).not.toHaveProperty('turn_index');
  });

  it('refuses bad requests with a JSON error naming the problem', async () => {
    expect(await post('/v1/search', { namespace: 'never-seen', query: 'x', top_k: 1 })).toEqual({
      status: 404,
      body: {
        error: {
          message:
            'namespace "never-seen" is unknown (reset or ingest it first; the least recently used namespaces are dropped beyond the server\'s namespace and memory bounds).',
        },
      },
    });
    const invalid = await post('/v1/ingest', { namespace: 'a', sessions: [{ session_id: 's', turns: [] }] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/sessions\.0\.date/);
    expect((await post('/v1/search', '{"namespace": ')).body.error.message).toMatch(/not valid JSON/);
    const wrongMethod = await fetch(`${server.url}/v1/search`);
    expect(wrongMethod.status).toBe(405);
    expect((await fetch(`${server.url}/v2/search`)).status).toBe(404);
  });

  const oneSession = (text: string) => [
    {
      session_id: 's1',
      date: '2023/05/30 (Tue) 23:40',
      turns: [{ role: 'user', content: text, turn_index: 0 }],
    },
  ];

  it('drops the least recently used namespace beyond its limit', async () => {
    for (const namespace of ['x', 'y', 'z']) {
      await post('/v1/reset', { namespace });
      await post('/v1/ingest', { namespace, sessions: oneSession(`about ${namespace}`) });
    }
    expect((await post('/v1/search', { namespace: 'x', query: 'q', top_k: 1 })).status).toBe(404);
    expect((await post('/v1/search', { namespace: 'z', query: 'about', top_k: 1 })).body.hits).toHaveLength(
      1,
    );
    await post('/v1/reset', { namespace: 'y' });
    await post('/v1/reset', { namespace: 'z' });
  });

  // Issue 36, item 5: namespaces freed by reset stayed as empty entries, counted against
  // --max-namespaces, and pushed live ones out (with 200 clients, searches got 404).
  it('frees a namespace on reset: finished clients never push out a live one', async () => {
    await post('/v1/reset', { namespace: 'live' });
    await post('/v1/ingest', { namespace: 'live', sessions: oneSession('the live namespace') });
    for (let client = 0; client < 20; client++) {
      const namespace = `client-${client}`;
      await post('/v1/reset', { namespace });
      await post('/v1/ingest', { namespace, sessions: oneSession(`client ${client}`) });
      expect((await post('/v1/search', { namespace, query: 'client', top_k: 1 })).status).toBe(200);
      await post('/v1/reset', { namespace });
    }
    const live = await post('/v1/search', { namespace: 'live', query: 'live namespace', top_k: 1 });
    expect(live.status).toBe(200);
    expect(live.body.hits).toHaveLength(1);
    expect(await (await fetch(`${server.url}/v1/health`)).json()).toMatchObject({ namespaces: 1 });
    // A reset namespace is searched as empty, not unknown.
    expect((await post('/v1/search', { namespace: 'client-3', query: 'client', top_k: 1 })).body).toEqual({
      hits: [],
    });
  });
});

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadLongMemEval } from '../../benchmarks/longmemeval/load-longmemeval.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { parseRunConfig } from '../../config/run-sections.js';
import type { Sample } from '../../results/sample.js';
import { runBenchmark } from '../../run/run-benchmark.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { createHttpProvider, type HttpProviderOptions } from './http-provider.js';

const dataDir = resolve(REPO_ROOT, 'datasets');
const TOKEN = 'lme-test-secret-7f3a9c';
const SECRET = `Bearer ${TOKEN}`;

type RequestBody = {
  namespace?: string;
  sessions?: { session_id: string; turns: { turn_index: number }[] }[];
  top_k?: number;
  granularity?: string;
};
type Request = { path: string; namespace: string; body: RequestBody; auth: string | undefined };
type Reply = {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  hang?: boolean;
};
type Handler = (request: Request, count: number) => Reply | undefined;

/**
 * A loopback server speaking the provider protocol: it stores ingested sessions and answers
 * searches with them in haystack order, unless `handler` returns another reply.
 */
async function startServer(handler: Handler = () => undefined) {
  const requests: Request[] = [];
  const sessions = new Map<string, { session_id: string; turns: { turn_index: number }[] }[]>();
  const counts = new Map<string, number>();
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as RequestBody;
      const request: Request = {
        path: incoming.url ?? '',
        namespace: body.namespace ?? '',
        body,
        auth: incoming.headers.authorization,
      };
      requests.push(request);
      const key = `${request.path} ${request.namespace}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      const reply = handler(request, count) ?? standard(request);
      if (reply.hang) return; // never answers; the client must time out
      outgoing.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      outgoing.end(reply.text ?? JSON.stringify(reply.json ?? {}));
    });
  });

  function standard(request: Request): Reply {
    if (request.path === '/v1/reset') sessions.set(request.namespace, []);
    if (request.path === '/v1/ingest')
      sessions.get(request.namespace)!.push(...(request.body.sessions ?? []));
    if (request.path !== '/v1/search') return { json: { ok: true } };
    const stored = sessions.get(request.namespace) ?? [];
    const hits =
      request.body.granularity === 'session'
        ? stored.map((session, rank) => ({ session_id: session.session_id, score: 100 - rank }))
        : stored.flatMap((session) =>
            session.turns.map((turn) => ({
              session_id: session.session_id,
              turn_index: turn.turn_index,
              score: 1,
            })),
          );
    return { json: { hits: hits.slice(0, request.body.top_k), answer: 'forty-two' } };
  }

  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

let records: LongMemEvalRecord[];
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  records = (await loadLongMemEval(resolve(dataDir, 'sample/longmemeval_s_sample.json.gz'))).records;
});

afterEach(async () => {
  await stop?.();
  stop = undefined;
});

function options(url: string, overrides: Partial<HttpProviderOptions> = {}): HttpProviderOptions {
  return {
    url,
    timeoutMs: 2000,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    topK: 50,
    granularity: 'session',
    indexRoles: 'user',
    ...overrides,
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('http provider against a misbehaving server', () => {
  it('records the failing questions as sample errors, retries the rate-limited one, and finishes the run', async () => {
    const [limited, broken, slow, garbled, echoing, truncating] = records.map((record) => record.question_id);
    // Namespaces are opaque: a question is known by its query, a namespace by the haystack ingested in it.
    const questionOfNamespace = new Map<string, string>();
    const questionOf = (request: Request) => {
      if (request.path === '/v1/search')
        return records.find((record) => record.question === (request.body as { query?: string }).query)
          ?.question_id;
      const first = (request.body.sessions?.[0]?.turns[0] as { content?: string } | undefined)?.content;
      const owner = records.find((record) =>
        record.haystack_sessions[0]!.some((turn) => turn.content === first),
      );
      if (owner) questionOfNamespace.set(request.namespace, owner.question_id);
      return questionOfNamespace.get(request.namespace);
    };
    const server = await startServer((request, count) => {
      const question = questionOf(request);
      if (request.path === '/v1/search' && question === limited && count === 1) {
        return { status: 429, headers: { 'retry-after': '0.01' }, json: { error: { message: 'slow down' } } };
      }
      if (request.path === '/v1/ingest' && question === broken) {
        // A careless server echoing the credentials it got: they must not reach the results.
        return { status: 500, json: { error: { message: `storage failed for ${request.auth}` } } };
      }
      if (request.path === '/v1/search' && question === slow) return { hang: true };
      if (request.path === '/v1/search' && question === garbled) return { text: '{"hits": [{"session_id": ' };
      const bare = request.auth?.split(' ')[1] ?? '';
      if (request.path === '/v1/search' && question === echoing) {
        // The bare token, without "Bearer", in a hit and in the system's answer.
        return { json: { hits: [{ session_id: bare, score: 1 }], answer: `token ${bare}` } };
      }
      if (request.path === '/v1/ingest' && question === truncating) {
        return { status: 400, json: { error: { message: `bad key ${bare.slice(0, 10)}…` } } };
      }
      return undefined;
    });
    stop = server.close;
    const provider = createHttpProvider(
      options(server.url, {
        timeoutMs: 1000,
        authHeaderEnv: 'LME_TEST_PROVIDER_TOKEN',
        environment: { LME_TEST_PROVIDER_TOKEN: SECRET },
        namespacePrefix: 'run-1',
      }),
    );
    const config = parseRunConfig({
      dataset: 'sample',
      dataDir,
      out: mkdtempSync(join(tmpdir(), 'lme-http-')),
    });
    const result = await runBenchmark(config, { argv: [], provider });

    const samples = readFileSync(join(result.dir, 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Sample);
    expect(samples).toHaveLength(22);
    const errors = new Map(samples.map((sample) => [sample.question_id, sample.error]));
    const base = server.url.replace(/[.:/]/g, '\\$&');
    expect(errors.get(broken!)).toMatch(
      new RegExp(
        `^question ${broken}: POST ${base}/v1/ingest failed: HTTP 500 \\(server said: storage failed for \\[redacted\\]\\) after 3 attempts\\.$`,
      ),
    );
    expect(errors.get(slow!)).toBe(
      `question ${slow}: POST ${server.url}/v1/search timed out after 1000 ms (3 attempts).`,
    );
    expect(errors.get(garbled!)).toMatch(
      new RegExp(`^question ${garbled}: POST ${base}/v1/search returned invalid JSON \\(.+\\): \\{"hits"`),
    );
    expect(errors.get(echoing!)).toBe(
      `question ${echoing}: POST ${server.url}/v1/search returned session_id "[redacted]", which is not a session of the question's haystack.`,
    );
    expect(errors.get(truncating!)).toBe(
      `question ${truncating}: POST ${server.url}/v1/ingest failed: HTTP 400 (server said: bad key [redacted]…).`,
    );
    expect(errors.get(limited!)).toBeNull();
    expect([...errors.values()].filter((error) => error !== null)).toHaveLength(5);
    const limitedSample = samples.find((sample) => sample.question_id === limited)!;
    expect(limitedSample.metrics['session.recall_any@50']).toBeDefined();

    const searches = (question: string) =>
      server.requests.filter((request) => request.path === '/v1/search' && questionOf(request) === question);
    expect(searches(limited!)).toHaveLength(2);
    expect(server.requests.filter((r) => r.path === '/v1/ingest' && questionOf(r) === broken)).toHaveLength(
      3,
    );
    expect(server.requests.every((request) => request.auth === SECRET)).toBe(true);
    // The run asks the server's health once (preflight), then starts the first question.
    expect(server.requests.filter((request) => request.path === '/v1/health')).toHaveLength(1);
    expect(server.requests[0]!.path).toBe('/v1/health');
    // Opaque namespaces: the run id and a random part, nothing of the question.
    expect(server.requests[1]!.namespace).toMatch(/^run-1\/[0-9a-f]{12}$/);
    expect(server.requests.map((request) => request.namespace).join(' ')).not.toContain(
      records[0]!.question_id,
    );
    expect(searches(records[7]!.question_id)[0]!.body).toEqual({
      namespace: expect.stringMatching(/^run-1\/[0-9a-f]{12}$/),
      query: records[7]!.question,
      query_date: records[7]!.question_date,
      top_k: 50,
      granularity: 'session',
    });

    expect(filesUnder(result.dir).map((file) => file.slice(result.dir.length + 1))).toEqual(
      expect.arrayContaining(['samples.jsonl', 'samples.csv', 'config.json']),
    );
    for (const file of filesUnder(result.dir)) {
      expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN.slice(0, 8));
    }
  });
});

describe('http provider mapping', () => {
  it('maps session hits onto the corpus in rank order and passes the answer on', async () => {
    const server = await startServer();
    stop = server.close;
    const record = records[0]!;
    const outcome = await createHttpProvider(options(server.url, { topK: 3 })).retrieve({ record });
    expect(outcome.ranking).toEqual([0, 1, 2]);
    expect(outcome.hits.map((hit) => [hit.id, hit.score, hit.routes.http?.rank])).toEqual([
      [record.haystack_session_ids[0], 100, 1],
      [record.haystack_session_ids[1], 99, 2],
      [record.haystack_session_ids[2], 98, 3],
    ]);
    expect(outcome.answer).toBe('forty-two');
  });

  it('sends only the graded roles, keeping each turn its position, and maps turn hits back', async () => {
    const server = await startServer();
    stop = server.close;
    const record = records[0]!;
    const outcome = await createHttpProvider(options(server.url, { granularity: 'turn', topK: 4 })).retrieve({
      record,
    });
    const ingested = server.requests.find((request) => request.path === '/v1/ingest')!.body.sessions!;
    const firstUserTurns = record.haystack_sessions[0]!.flatMap((turn, index) =>
      turn.role === 'user' ? [{ role: 'user', content: turn.content, turn_index: index }] : [],
    );
    expect(ingested[0]).toEqual({
      session_id: expect.stringMatching(/^s-[0-9a-f]{10}$/),
      date: record.haystack_dates[0],
      turns: firstUserTurns,
    });
    const userTurnIds = record.haystack_sessions.flatMap((turns, session) =>
      turns.flatMap((turn, index) =>
        turn.role === 'user' ? [`${record.haystack_session_ids[session]}_${index + 1}`] : [],
      ),
    );
    expect(outcome.hits.map((hit) => hit.id)).toEqual(userTurnIds.slice(0, 4));
    expect(outcome.ranking).toEqual([0, 1, 2, 3]);
  });

  it.each([
    [
      'a session the haystack does not hold',
      'session',
      { hits: [{ session_id: 'no_such_session', score: 1 }] },
      /returned session_id "no_such_session", which is not a session of the question's haystack\./,
    ],
    [
      'a turn hit without turn_index',
      'turn',
      { hits: [{ session_id: 'x', score: 1 }] },
      /returned hit 0 \(session_id "x"\) without turn_index; turn granularity needs one\./,
    ],
    [
      'a body of the wrong shape',
      'session',
      { results: [] },
      /\/v1\/search returned an unexpected body \(hits: .+\)\./,
    ],
  ] as const)('fails the question on %s, naming it', async (_, granularity, json, message) => {
    const server = await startServer((request) => (request.path === '/v1/search' ? { json } : undefined));
    stop = server.close;
    const record = records[1]!;
    const provider = createHttpProvider(options(server.url, { granularity }));
    await expect(provider.retrieve({ record })).rejects.toThrow(message);
    await expect(provider.retrieve({ record })).rejects.toThrow(
      new RegExp(`^question ${record.question_id}: `),
    );
  });

  it('does not retry a client error, and hints at credentials on 401', async () => {
    const server = await startServer(() => ({ status: 401, json: { error: { message: 'who are you?' } } }));
    stop = server.close;
    await expect(createHttpProvider(options(server.url)).retrieve({ record: records[0]! })).rejects.toThrow(
      /\/v1\/reset failed: HTTP 401 \(server said: who are you\?\)\. The server wants credentials: name the variable holding them with --provider-auth-env\./,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when the run is interrupted', async () => {
    const server = await startServer(() => ({ hang: true }));
    stop = server.close;
    const controller = new AbortController();
    const pending = createHttpProvider(options(server.url)).retrieve({
      record: records[0]!,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads its health', async () => {
    const server = await startServer(() => ({ json: { status: 'ok', name: 'fake' } }));
    stop = server.close;
    expect(await createHttpProvider(options(server.url)).health()).toEqual({ status: 'ok', name: 'fake' });
  });
});

describe('http provider configuration', () => {
  it('needs the named environment variable, and never takes credentials in the URL', () => {
    expect(() =>
      createHttpProvider(
        options('http://127.0.0.1:1', { authHeaderEnv: 'LME_UNSET_VARIABLE', environment: {} }),
      ),
    ).toThrow(/environment variable LME_UNSET_VARIABLE \(named by --provider-auth-env\) is not set/);
    expect(() => createHttpProvider(options('http://user:pass@127.0.0.1:1'))).toThrow(
      /^--provider-url must not carry credentials/,
    );
    expect(() => createHttpProvider(options('http://127.0.0.1:1/?key=abc'))).toThrow(
      /^--provider-url must be a base URL without a query string or fragment/,
    );
    expect(() => createHttpProvider(options('localhost:8787'))).toThrow(
      /^--provider-url must be an http:\/\/ or https:\/\/ URL/,
    );
  });
});

describe('http provider: what an answering system reports', () => {
  const search = (extra: Record<string, unknown>) => (request: Request) =>
    request.path === '/v1/search' ? { json: { hits: [], ...extra } } : undefined;

  it('passes on the context, usage and latency the system reports with its answer', async () => {
    const server = await startServer(
      search({
        answer: 'forty-two',
        context: 'the user is 42',
        usage: {
          prompt_tokens: 120,
          completion_tokens: 4,
          total_tokens: 124,
          cost_usd: 0.0002,
          model: 'mini',
        },
        latency_ms: 812.5,
      }),
    );
    stop = server.close;
    const outcome = await createHttpProvider(options(server.url)).retrieve({ record: records[0]! });
    expect(outcome.answer).toBe('forty-two');
    expect(outcome.answerReport).toEqual({
      context: 'the user is 42',
      usage: { prompt_tokens: 120, completion_tokens: 4, cost_usd: 0.0002, model: 'mini' },
      latencyMs: 812.5,
    });
  });

  it.each([
    ['an answer over 20,000 characters', { answer: 'x'.repeat(20_001) }, 'answer'],
    ['a context over 200,000 characters', { context: 'x'.repeat(200_001) }, 'context'],
    ['negative tokens', { usage: { prompt_tokens: -1, completion_tokens: 0 } }, 'usage.prompt_tokens'],
    ['fractional tokens', { usage: { prompt_tokens: 1.5, completion_tokens: 0 } }, 'usage.prompt_tokens'],
    ['usage without completion tokens', { usage: { prompt_tokens: 1 } }, 'usage.completion_tokens'],
    ['a negative latency', { latency_ms: -3 }, 'latency_ms'],
  ])('fails the question on %s, naming the field', async (_, extra, field) => {
    const server = await startServer(search(extra));
    stop = server.close;
    const record = records[0]!;
    await expect(createHttpProvider(options(server.url)).retrieve({ record })).rejects.toThrow(
      new RegExp(
        `question ${record.question_id}: POST .*/v1/search returned an unexpected body \\(${field.replace('.', '\\.')}: `,
      ),
    );
  });
});

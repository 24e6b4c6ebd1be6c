import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { chatCompletionReply, type OpenAiWireServer, startOpenAiWireServer } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { addSecret, forgetSecrets } from '../config/secrets.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { startCli } from '../testing/run-cli-async.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';

/** One distinct canary per secret source; each starts with 8 characters found nowhere else. */
const CANARIES = {
  OPENAI_API_KEY: 'OPENAIcanary-key-0001-aaaa',
  LME_READER_API_KEY: 'READERcanary-key-0002-bbbb',
  LME_JUDGE_API_KEY: 'JUDGEScanary-key-0003-cccc',
  QDRANT_API_KEY: 'QDRANTcanary-key-0004-dddd',
  /** The variable --provider-auth-env names: a whole header value. */
  LME_CANARY_PROVIDER_AUTH: 'Bearer PRVDRcanary-token-0005-eeee',
  /** Credentials in a URL variable the run does not use (memory vector store). */
  QDRANT_URL: 'http://qdrant:URLPASScanary-0006-ffff@127.0.0.1:1',
  QDRANT_GRPC_URL: 'http://qdrant:GRPCPASScanary-0007-gggg@127.0.0.1:2',
};
/** What is searched for: the first 8 characters of every secret (and so any longer part of it). */
const NEEDLES = ['OPENAIca', 'READERca', 'JUDGESca', 'QDRANTca', 'PRVDRcan', 'URLPASSc', 'GRPCPASS'];

type Session = { session_id: string; turns: { turn_index: number }[] };

/**
 * A provider-protocol server that echoes the token it is sent: as a hit's session id (first
 * question), in the system's answer (second), and whole and truncated in an error (third).
 */
async function startEchoingProvider() {
  const sessions = new Map<string, Session[]>();
  const order: string[] = [];
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        namespace?: string;
        sessions?: Session[];
      };
      const auth = incoming.headers.authorization ?? '';
      const bare = auth.replace(/^Bearer /, '');
      const namespace = body.namespace ?? '';
      // The run's preflight health check is no question.
      if (incoming.url === '/v1/health') {
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        outgoing.end('{"status": "ok"}');
        return;
      }
      if (!order.includes(namespace)) order.push(namespace);
      const which = order.indexOf(namespace);
      let status = 200;
      let json: unknown = { ok: true };
      if (incoming.url === '/v1/ingest') {
        if (which === 2) {
          status = 400;
          json = { error: { message: `storage failed for ${auth} (key ${bare.slice(0, 10)}…)` } };
        } else {
          sessions.set(namespace, [...(sessions.get(namespace) ?? []), ...(body.sessions ?? [])]);
        }
      } else if (incoming.url === '/v1/search') {
        const hits = (sessions.get(namespace) ?? []).map((session, rank) => ({
          session_id: session.session_id,
          score: 100 - rank,
        }));
        json =
          which === 0
            ? { hits: [{ session_id: bare, score: 1 }] }
            : { hits, answer: `the token was ${bare}` };
      }
      outgoing.writeHead(status, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

describe('secrets canary sweep', () => {
  it('finds no canary of any secret source in the run folder, the cache or any output', async () => {
    // Reader and judge: the reader answers with the key it was sent; the judge refuses with a
    // truncated echo of its key on one question and says yes otherwise.
    const wire: OpenAiWireServer = await startOpenAiWireServer({
      '/chat/completions': (request, index) => {
        const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
        if (key === CANARIES.LME_READER_API_KEY) return chatCompletionReply(`I was called with ${key}`);
        if (index === 1) return { status: 400, json: { error: { message: `Bad key ${key.slice(0, 12)}` } } };
        return chatCompletionReply('yes');
      },
    });
    closers.push(() => wire.close());
    const provider = await startEchoingProvider();
    closers.push(provider.close);
    const out = mkdtempSync(join(tmpdir(), 'lme-canary-'));
    const cacheDir = join(out, 'cache');
    const environment = { ...CANARIES, OPENAI_BASE_URL: wire.baseUrl };

    const run = await startCli(
      [
        'run',
        '--dataset',
        'sample',
        '--limit',
        '3',
        '--provider',
        'http',
        '--provider-url',
        provider.url,
        '--provider-auth-env',
        'LME_CANARY_PROVIDER_AUTH',
        '--provider-retries',
        '0',
        '--reader-model',
        'gpt-4o-mini',
        '--max-retries',
        '0',
        '--explain',
        '--out',
        out,
        '--run-id',
        'canary',
        '--cache-dir',
        cacheDir,
      ],
      environment,
    ).done;
    expect(run.stderr, 'the run starts').not.toMatch(/^lme: /m);
    // Credentials in a URL are refused, and the refusal does not quote them.
    const refused = await startCli(
      ['run', '--dataset', 'sample', '--limit', '1', '--reader-model', 'gpt-4o-mini', '--out', out],
      { ...environment, OPENAI_BASE_URL: wire.baseUrl.replace('//', '//user:URLPASScanary-0007-gggg@') },
    ).done;

    const runDir = join(out, 'canary');
    const places = [
      ...filesUnder(runDir).map((file) => ({ place: relative(out, file), text: readFileSync(file, 'utf8') })),
      ...filesUnder(cacheDir).map((file) => ({
        place: relative(out, file),
        text: readFileSync(file, 'utf8'),
      })),
      { place: 'stdout of lme run', text: run.stdout },
      { place: 'stderr of lme run', text: run.stderr },
      { place: 'stdout of the refused run', text: refused.stdout },
      { place: 'stderr of the refused run', text: refused.stderr },
    ];
    if (process.env.LME_CANARY_REPORT) {
      process.stderr.write(`places searched:\n${places.map((entry) => `  ${entry.place}`).join('\n')}\n`);
    }
    const names = places.map((entry) => entry.place);
    expect(names).toEqual(
      expect.arrayContaining([
        'canary/samples.jsonl',
        'canary/samples.csv',
        'canary/config.json',
        'canary/explain.jsonl',
        'canary/summary.json',
      ]),
    );
    expect(names.some((name) => name.startsWith('cache/'))).toBe(true);

    // The echoes happened: each is in the results, redacted.
    const samples = readFileSync(join(runDir, 'samples.jsonl'), 'utf8').trim().split('\n');
    expect(samples).toHaveLength(3);
    expect(samples.join('\n')).toContain('[redacted]');
    expect(samples.filter((line) => /"error":"question/.test(line))).toHaveLength(2);

    const found = places.flatMap(({ place, text }) =>
      NEEDLES.filter((needle) => text.includes(needle)).map((needle) => `${needle} in ${place}`),
    );
    expect(found).toEqual([]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^lme: OPENAI_BASE_URL must not carry credentials/);
  }, 120_000);

  it('redacts a secret from the error of any provider before it is stored', async () => {
    addSecret('STOREDcanary-0008-hhhh');
    try {
      const result = await runBenchmark(sampleConfig({ limit: 1 }), {
        argv: [],
        provider: {
          id: 'careless',
          retrieve: async () => {
            throw new Error('upstream said STOREDcanary-0008-hhhh is wrong');
          },
        },
      });
      expect(samplesOf(result.dir).map((sample) => sample.error)).toEqual([
        'upstream said [redacted] is wrong',
      ]);
    } finally {
      forgetSecrets();
    }
  });

  it('redacts secrets from whatever the CLI prints, whoever wrote the message', async () => {
    const key = 'PRINTcanary-0009-iiii';
    const result = await startCli(['run', '--dataset', `/nonexistent/${key}.json`, '--limit', '1'], {
      OPENAI_API_KEY: key,
    }).done;
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('/nonexistent/[redacted].json');
    expect(result.stderr + result.stdout).not.toContain(key.slice(0, 8));
  });
});

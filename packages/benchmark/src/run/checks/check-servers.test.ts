import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHashingEmbedder, startFakeQdrant } from '@lme/search-core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunConfig } from '../../config/run-config.js';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { createHttpProvider } from '../../providers/http/http-provider.js';
import type { Provider } from '../../providers/provider.js';
import { REPO_ROOT, runCli } from '../../testing/run-cli.js';
import { runBenchmark } from '../run-benchmark.js';
import { checkServers, serverChecks } from './check-servers.js';

const dataDir = resolve(REPO_ROOT, 'datasets');
const KEY = 'sk-test-SECRET-0123456789abcdef';
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});

/** A loopback server answering every request with `status`; records the paths it was asked. */
async function serve(status: number, body = '{}') {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

/** A loopback URL nothing listens on. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((done) => server.close(() => done()));
  return url;
}

const config = (overrides: Record<string, unknown>): RunConfig =>
  parseRunConfig({
    dataset: 'sample',
    dataDir,
    out: mkdtempSync(join(tmpdir(), 'lme-servers-')),
    maxRetries: 0,
    ...overrides,
  });
const noProvider: Provider = { id: 'none', retrieve: () => Promise.reject(new Error('not reached')) };
const environment = { OPENAI_API_KEY: KEY };
const quoted = (url: string) => url.replace(/[.:/]/g, '\\$&');

describe('checkServers (preflight of every server a run calls)', () => {
  it('stops a run at a dead --provider-url before its first question, leaving no folder', async () => {
    const url = await closedUrl();
    const run = config({ provider: 'http', providerUrl: url, runId: 'dead-provider' });
    await expect(runBenchmark(run, { argv: [], environment })).rejects.toThrow(
      new RegExp(
        `^The provider at --provider-url ${quoted(url)} does not answer \\(GET ${quoted(url)}/v1/health failed: ECONNREFUSED.*\\): is the server running at that URL\\?$`,
      ),
    );
    expect(existsSync(join(run.out, 'dead-provider'))).toBe(false);
  });

  it("stops at a provider that refuses lme's credentials, naming the variable, not its value", async () => {
    const provider = await serve(401, `{"error": {"message": "bad token ${KEY}"}}`);
    const http = createHttpProvider({
      url: provider.url,
      authHeaderEnv: 'LME_TEST_TOKEN',
      environment: { LME_TEST_TOKEN: `Bearer ${KEY}` },
      timeoutMs: 1000,
      maxRetries: 3,
      granularity: 'session',
      indexRoles: 'user',
    });
    const failure = (await checkServers({
      sections: groupConfig(config({})),
      provider: http,
      environment,
    }).catch((error: unknown) => error)) as Error;
    expect(failure.message).toBe(
      `The provider at --provider-url ${provider.url} refused lme's credentials (GET ${provider.url}/v1/health answered HTTP 401): check the Authorization value in LME_TEST_TOKEN (--provider-auth-env).`,
    );
    expect(provider.asked).toEqual(['GET /v1/health']);
  });

  it('names the reader flag and URL of a dead reader endpoint', async () => {
    const url = `${await closedUrl()}/v1`;
    const run = config({ readerModel: 'x', readerBaseUrl: url });
    await expect(
      checkServers({ sections: groupConfig(run), provider: noProvider, environment }),
    ).rejects.toThrow(
      new RegExp(
        `^The reader \\(x\\) at --reader-base-url ${quoted(url)} does not answer \\(GET ${quoted(url)}/models failed: ECONNREFUSED.*\\): is the server running at that URL\\?$`,
      ),
    );
  });

  it('stops at a judge that refuses its key in one request, never quoting the key', async () => {
    const reader = await serve(200, '{"data": []}');
    const judge = await serve(401, `{"error": {"message": "Incorrect API key provided: ${KEY}"}}`);
    const run = config({
      readerModel: 'x',
      readerBaseUrl: `${reader.url}/v1`,
      judgeModel: 'j',
      judgeBaseUrl: `${judge.url}/v1`,
    });
    const failure = (await checkServers({
      sections: groupConfig(run),
      provider: noProvider,
      environment,
    }).catch((error: unknown) => error)) as Error;
    expect(failure.message).toBe(
      `The judge (j) at --judge-base-url ${judge.url}/v1 refused its credentials (GET ${judge.url}/v1/models answered HTTP 401): check LME_JUDGE_API_KEY / OPENAI_API_KEY.`,
    );
    expect(judge.asked).toEqual(['GET /v1/models']);
    expect(reader.asked).toEqual(['GET /v1/models']);
  });

  it('names a dead http: reranker by its flag and URL', async () => {
    const url = await closedUrl();
    const run = config({ reranker: `http:${url}` });
    await expect(
      checkServers({ sections: groupConfig(run), provider: noProvider, environment }),
    ).rejects.toThrow(
      new RegExp(
        `^The reranker \\(rerank\\) at --reranker http:${quoted(url)} does not answer \\(GET ${quoted(url)}/rerank failed: ECONNREFUSED`,
      ),
    );
  });

  it('passes live servers, even ones without a models list, asking one endpoint once', async () => {
    const openAi = await serve(404, '{"error": "no such route"}');
    const rerank = await serve(405);
    const run = config({
      readerModel: 'x',
      judgeModel: 'j',
      baseUrl: `${openAi.url}/v1`,
      reranker: `http:${rerank.url}/v1`,
    });
    expect(serverChecks(groupConfig(run), environment).map((check) => check.who)).toEqual([
      'the reranker (rerank)',
      'the reader (x) and the judge (j)',
    ]);
    await expect(
      checkServers({ sections: groupConfig(run), provider: noProvider, environment }),
    ).resolves.toBeUndefined();
    expect(openAi.asked).toEqual(['GET /v1/models']);
    expect(rerank.asked).toEqual(['GET /v1/rerank']);
  });
});

describe('lme run against a dead provider', () => {
  it('exits 1 with one sentence naming --provider-url, before any question', async () => {
    const url = await closedUrl();
    const out = mkdtempSync(join(tmpdir(), 'lme-servers-cli-'));
    const result = runCli(['run', '-d', 'sample', '--provider', 'http', '--provider-url', url, '--out', out]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^lme: The provider at --provider-url ${quoted(url)} does not answer .*\\n$`),
    );
  });

  it('--dry-run contacts no server: it prints the plan even when every server is dead', async () => {
    const url = await closedUrl();
    const result = runCli([
      'run',
      '-d',
      'sample',
      '--provider',
      'http',
      '--provider-url',
      url,
      '--reader-model',
      'x',
      '--reader-base-url',
      `${url}/v1`,
      '--dry-run',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/questions/);
  });
});

describe('checkServers: the Qdrant vector store', () => {
  const qdrantRun = (runId: string) =>
    config({ retriever: 'hybrid', vectorStore: 'qdrant', cache: false, runId });

  it('stops a run at a dead QDRANT_URL before any haystack is embedded, naming the cause', async () => {
    const url = await closedUrl();
    const run = qdrantRun('dead-qdrant');
    const embedder = createHashingEmbedder({ dimensions: 8 });
    // The provider reads QDRANT_URL from the process environment.
    vi.stubEnv('QDRANT_URL', url);
    await expect(
      runBenchmark(run, { argv: [], environment: { QDRANT_URL: url }, resources: { embedder } }),
    ).rejects.toThrow(
      new RegExp(
        `^The Qdrant vector store at QDRANT_URL ${quoted(url)} does not answer \\(GET ${quoted(url)}/ failed: ECONNREFUSED \\(connect ECONNREFUSED .*\\)\\): is the server running at that URL\\?$`,
      ),
    );
    vi.unstubAllEnvs();
    expect(embedder.documents).toEqual([]);
    expect(existsSync(join(run.out, 'dead-qdrant'))).toBe(false);
  });

  it('stops at a Qdrant older than the minimum, and at one refusing QDRANT_API_KEY, never quoting the key', async () => {
    const old = await startFakeQdrant({ version: '1.17.1' });
    const locked = await startFakeQdrant({ requireKey: 'other-key-0123456789' });
    try {
      await expect(
        checkServers({
          sections: groupConfig(qdrantRun('old')),
          provider: noProvider,
          environment: { QDRANT_URL: old.url },
        }),
      ).rejects.toThrow(`The Qdrant server at ${old.url} is version 1.17.1; lme needs 1.18.0 or later`);
      const refused = (await checkServers({
        sections: groupConfig(qdrantRun('locked')),
        provider: noProvider,
        environment: { QDRANT_URL: locked.url, QDRANT_API_KEY: KEY },
      }).catch((error: unknown) => error)) as Error;
      expect(refused.message).toBe(
        `The Qdrant vector store at QDRANT_URL ${locked.url} refused its credentials (GET ${locked.url}/ answered HTTP 401): check QDRANT_API_KEY.`,
      );
    } finally {
      await old.close();
      await locked.close();
    }
  });

  it('stops at a QDRANT_GRPC_URL that does not answer or is another server, naming it', async () => {
    const qdrant = await startFakeQdrant({ grpc: true });
    const other = await startFakeQdrant({ grpc: true, version: '1.18.0' });
    const dead = await closedUrl();
    try {
      const check = (grpcUrl: string) =>
        checkServers({
          sections: groupConfig(qdrantRun('grpc')),
          provider: noProvider,
          environment: { QDRANT_URL: qdrant.url, QDRANT_GRPC_URL: grpcUrl },
        });
      await check(qdrant.grpcUrl!);
      expect(qdrant.grpcCalls.map((call) => call.method)).toEqual(['/qdrant.Qdrant/HealthCheck']);
      await expect(check(dead)).rejects.toThrow(
        new RegExp(
          `^The Qdrant vector store's gRPC endpoint at QDRANT_GRPC_URL ${quoted(dead)} does not answer \\(UNAVAILABLE \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\)\\): is it Qdrant's gRPC port \\(6334 by default\\)\\?$`,
        ),
      );
      await expect(check(other.grpcUrl!)).rejects.toThrow(
        `QDRANT_GRPC_URL ${other.grpcUrl} is Qdrant 1.18.0 and QDRANT_URL is 1.18.3: both must be the same server.`,
      );
      await expect(check('grpc://127.0.0.1:6334')).rejects.toThrow(
        'QDRANT_GRPC_URL must be an http:// or https:// URL (got grpc:).',
      );
    } finally {
      await qdrant.close();
      await other.close();
    }
  });

  it('asks Qdrant for uncompressed replies, as every later call does', async () => {
    const qdrant = await startFakeQdrant();
    try {
      await checkServers({
        sections: groupConfig(qdrantRun('plain')),
        provider: noProvider,
        environment: { QDRANT_URL: qdrant.url },
      });
      // A gzip reply leaves in two segments and the second waits ~40 ms on Qdrant's Nagle.
      expect(qdrant.acceptEncodings).toEqual(['identity', 'identity']);
    } finally {
      await qdrant.close();
    }
  });
});

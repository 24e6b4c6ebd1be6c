import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RetrievalHit } from '../core/retriever.js';
import { ServiceError } from '../http/service-error.js';
import type { OpenAiWireServer } from '../testing/openai-wire-server.js';
import { rerankReply, startRerankServer } from '../testing/rerank-wire-server.js';
import { createHttpReranker } from './http-reranker.js';
import { rerankHits } from './rerank-hits.js';
import { RerankError } from './reranker.js';

const KEY = 'rk-test-SECRET-0123456789';
const texts = ['apples are red', 'the sky is blue', 'bananas are yellow'];
const candidates = texts.map((text, index) => ({
  id: `d${index}`,
  sessionId: `s${index}`,
  text,
  score: 1 - index / 10,
  routes: {},
}));
const hits: RetrievalHit[] = candidates.map((candidate, document) => ({
  document,
  id: candidate.id,
  sessionId: candidate.sessionId,
  score: candidate.score,
  routes: {},
}));
const documents = texts.map((text, index) => ({ id: `d${index}`, text, sessionId: `s${index}` }));

let server: OpenAiWireServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (milliseconds: number) => void waits.push(milliseconds) };
}

describe('http reranker (/rerank wire format)', () => {
  it('sends {model, query, documents, top_n} with the bearer key and orders by relevance_score', async () => {
    server = await startRerankServer(() => rerankReply([0.1, 0.9, 0.5]));
    const reranker = createHttpReranker({ url: server.baseUrl, model: 'rerank-test', apiKey: KEY });
    const result = await reranker.rerank({ query: 'what colour is the sky', candidates });
    expect(server.requests[0]!.path).toBe('/rerank');
    expect(server.requests[0]!.body).toEqual({
      model: 'rerank-test',
      query: 'what colour is the sky',
      documents: texts,
      top_n: 3,
    });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(result.order).toEqual([1, 2, 0]);
    expect(result.scores).toEqual([0.1, 0.9, 0.5]);
    expect(result.usage).toMatchObject({ calls: 1, cachedCalls: 0, promptTokens: 42 });
  });

  it('retries a 429 after the retry-after the server asks for, then succeeds', async () => {
    server = await startRerankServer((_, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '2' }, json: { error: 'slow down' } }
        : rerankReply([0, 1, 2]),
    );
    const { waits, sleep } = recorder();
    const reranker = createHttpReranker({ url: server.baseUrl, model: 'm', sleep });
    const result = await reranker.rerank({ query: 'q', candidates });
    expect(waits).toEqual([2000]);
    expect(result.order).toEqual([2, 1, 0]);
  });

  it('fails with one sentence after the retries of a 500, never printing the key', async () => {
    server = await startRerankServer(() => ({ status: 500, text: `boom ${KEY}` }));
    const { waits, sleep } = recorder();
    const reranker = createHttpReranker({
      url: server.baseUrl,
      model: 'm',
      apiKey: KEY,
      maxRetries: 2,
      sleep,
    });
    const error = await reranker.rerank({ query: 'q', candidates }).catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(
      /^Reranker m: POST http:\/\/127\.0\.0\.1:\d+\/v1\/rerank failed: HTTP 500 \(body: boom \[redacted\]\) after 3 attempts\.$/,
    );
    expect(error).toBeInstanceOf(RerankError);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 500, retryable: true });
    expect((error as Error).message).not.toContain(KEY);
    expect(waits).toEqual([500, 1000]);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400, and says so by status and retryable', async () => {
    server = await startRerankServer(() => ({ status: 400, json: { error: { message: 'bad model' } } }));
    const { waits, sleep } = recorder();
    const reranker = createHttpReranker({ url: server.baseUrl, model: 'm', sleep });
    await expect(reranker.rerank({ query: 'q', candidates })).rejects.toMatchObject({
      name: 'RerankError',
      status: 400,
      retryable: false,
    });
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a reply that does not come', async () => {
    server = await startRerankServer(() => ({ delayMs: 5_000, ...rerankReply([1, 2, 3]) }));
    const reranker = createHttpReranker({ url: server.baseUrl, model: 'm', timeoutMs: 30, maxRetries: 0 });
    await expect(reranker.rerank({ query: 'q', candidates })).rejects.toThrow(
      /^Reranker m: POST http:\/\/127\.0\.0\.1:\d+\/v1\/rerank timed out after 30 ms\.$/,
    );
  });

  it('rejects a malformed reply and one missing some indices', async () => {
    server = await startRerankServer((_, index) =>
      index === 0
        ? { json: { data: [] } }
        : {
            json: {
              results: [
                { index: 0, relevance_score: 0.3 },
                { index: 2, relevance_score: 0.1 },
              ],
            },
          },
    );
    const reranker = createHttpReranker({ url: server.baseUrl, model: 'm', maxRetries: 0 });
    await expect(reranker.rerank({ query: 'q', candidates })).rejects.toThrow(/returned no "results" list/);
    await expect(reranker.rerank({ query: 'q', candidates })).rejects.toThrow(
      /left out 1 of 3 documents \(indices 1\)/,
    );
  });

  it('as a stage, keeps the incoming order and records why when the reply is unusable', async () => {
    server = await startRerankServer(() => ({ json: { results: [{ index: 7, relevance_score: 1 }] } }));
    const reranker = createHttpReranker({ url: server.baseUrl, model: 'm', maxRetries: 0 });
    const { hits: reranked, trace } = await rerankHits({ reranker, query: 'q', hits, documents, depth: 3 });
    expect(reranked.map((hit) => hit.id)).toEqual(['d0', 'd1', 'd2']);
    expect(trace.fallback).toMatch(/not \{index, relevance_score\} for 3 documents/);
  });

  it('serves a repeated request from the completion cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lme-rerank-'));
    dirs.push(dir);
    server = await startRerankServer(() => rerankReply([0.2, 0.1, 0.3]));
    const make = () => createHttpReranker({ url: `${server!.baseUrl}/rerank`, model: 'm', cacheDir: dir });
    await make().rerank({ query: 'q', candidates });
    const again = await make().rerank({ query: 'q', candidates });
    expect(server.requests).toHaveLength(1);
    expect(again.order).toEqual([2, 0, 1]);
    expect(again.usage).toMatchObject({ calls: 1, cachedCalls: 1, promptTokens: 0 });
  });

  it("never serves one rerank server's cached reply for another at another URL", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lme-rerank-'));
    dirs.push(dir);
    server = await startRerankServer(() => rerankReply([0.2, 0.1, 0.3]));
    const other = await startRerankServer(() => rerankReply([0.9, 0.1, 0.3]));
    try {
      await createHttpReranker({ url: `${server.baseUrl}/rerank`, model: 'm', cacheDir: dir }).rerank({
        query: 'q',
        candidates,
      });
      const second = await createHttpReranker({
        url: `${other.baseUrl}/rerank`,
        model: 'm',
        cacheDir: dir,
      }).rerank({ query: 'q', candidates });
      expect(other.requests).toHaveLength(1);
      expect(second.order).toEqual([0, 2, 1]);
      expect(second.usage).toMatchObject({ calls: 1, cachedCalls: 0 });
    } finally {
      await other.close();
    }
  });
});

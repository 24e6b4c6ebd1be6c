import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../http/service-error.js';
import {
  type OpenAiWireServer,
  type RecordedRequest,
  startOpenAiWireServer,
} from '../testing/openai-wire-server.js';
import { withDiskCache } from './disk-cache/with-disk-cache.js';
import { createOpenAiEmbedder } from './openai-embedder.js';

const API_KEY = 'sk-test-0123456789abcdef';

/** A deterministic 4-d embedding of a text (not normalised: the embedder must normalise). */
function fakeVector(text: string): number[] {
  return [text.length, text.charCodeAt(0) || 1, 3, 4];
}

/** An /embeddings answer in OpenAI's format, items deliberately in reverse order. */
function embeddingsReply(request: RecordedRequest) {
  const { input, model } = request.body as { input: string[]; model: string };
  const data = input
    .map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) }))
    .reverse();
  return { json: { object: 'list', data, model, usage: { prompt_tokens: 1, total_tokens: 1 } } };
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

describe('createOpenAiEmbedder', () => {
  let server: OpenAiWireServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('splits texts into batches and returns normalised vectors in input order', async () => {
    server = await startOpenAiWireServer({ '/embeddings': embeddingsReply });
    const embedder = createOpenAiEmbedder({
      model: 'test-embed',
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      batchSize: 2,
    });
    expect(embedder.id).toBe('openai:test-embed');
    const texts = ['alpha', 'be', 'gamma ray', '', 'delta'];
    const progress: number[] = [];
    const vectors = await embedder.embedDocuments({ texts, onProgress: (done) => progress.push(done) });

    expect(server.requests.map((request) => (request.body as { input: string[] }).input)).toEqual([
      ['alpha', 'be'],
      ['gamma ray', ' '], // the API rejects empty strings
      ['delta'],
    ]);
    const first = server.requests[0]!;
    expect(first.body).toMatchObject({ model: 'test-embed', encoding_format: 'float' });
    expect(first.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(vectors).toHaveLength(5);
    vectors.forEach((vector) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(norm(vector)).toBeCloseTo(1, 5);
    });
    const expected = fakeVector('gamma ray');
    const length = Math.hypot(...expected);
    expect(Array.from(vectors[2]!)).toEqual(expected.map((value) => Math.fround(value / length)));
    expect(embedder.dimensions).toBe(4);
    expect(progress.at(-1)).toBe(5);
    expect((await embedder.embedQuery({ text: 'be' })).length).toBe(4);
  });

  it('retries a 429 (the openai client waits its retry-after) and then succeeds', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (request, index) =>
        index === 0
          ? {
              status: 429,
              headers: { 'retry-after': '0.05' },
              json: { error: { message: 'Rate limit reached', type: 'requests' } },
            }
          : embeddingsReply(request),
    });
    const embedder = createOpenAiEmbedder({ model: 'test-embed', baseURL: server.baseUrl, apiKey: API_KEY });
    const vectors = await embedder.embedDocuments({ texts: ['one', 'two'] });
    expect(vectors).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['too few embeddings', { data: [{ index: 0, embedding: [1, 2] }] }, /expected 2 embeddings, got 1/],
    ['no data array', { object: 'list' }, /no "data" array/],
    [
      'a non-numeric value',
      { data: [0, 1].map((index) => ({ index, embedding: [1, 'x'] })) },
      /embedding\[1\] is "x", not a finite number/,
    ],
    [
      'inconsistent lengths',
      {
        data: [
          { index: 0, embedding: [1, 2] },
          { index: 1, embedding: [1, 2, 3] },
        ],
      },
      /has 3 dimensions, data\[0\] has 2/,
    ],
    [
      'a repeated index',
      {
        data: [
          { index: 0, embedding: [1, 2] },
          { index: 0, embedding: [1, 2] },
        ],
      },
      /index 0 appears twice/,
    ],
    [
      'a base64 string',
      { data: [0, 1].map((index) => ({ index, embedding: 'AAAA' })) },
      /embedding is not a non-empty array/,
    ],
  ])('rejects a response with %s, naming the model, and nothing gets cached', async (_, json, problem) => {
    server = await startOpenAiWireServer({ '/embeddings': () => ({ json }) });
    const dir = await mkdtemp(join(tmpdir(), 'lme-openai-cache-'));
    dirs.push(dir);
    const embedder = createOpenAiEmbedder({ model: 'test-embed', baseURL: server.baseUrl, apiKey: API_KEY });
    const cached = withDiskCache(embedder, { dir });
    const error = await cached.embedDocuments({ texts: ['one', 'two'] }).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^openai:test-embed returned a malformed embeddings response: /);
    expect((error as Error).message).toMatch(problem);
    expect(cached.stats()).toMatchObject({ pending: 0, written: 0 });
    await cached.close();
    expect(await readdir(join(dir, 'embeddings')).catch(() => [])).toEqual([]);
  });

  it('rejects vectors whose size changes between responses', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (request, index) => {
        const { input } = request.body as { input: string[] };
        return {
          json: { data: input.map((_, i) => ({ index: i, embedding: index === 0 ? [1, 2] : [1, 2, 3] })) },
        };
      },
    });
    const embedder = createOpenAiEmbedder({
      model: 'm',
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      concurrency: 1,
    });
    await embedder.embedDocuments({ texts: ['a'] });
    await expect(embedder.embedDocuments({ texts: ['b'] })).rejects.toThrow(/3 dimensions, expected 2/);
  });

  it('sends requested dimensions, enforces them and keeps them in the id', async () => {
    server = await startOpenAiWireServer({ '/embeddings': embeddingsReply });
    const embedder = createOpenAiEmbedder({
      model: 'm',
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      dimensions: 4,
    });
    expect(embedder.id).toBe('openai:m@4');
    expect(embedder.dimensions).toBe(4);
    await embedder.embedDocuments({ texts: ['a'] });
    expect(server.requests[0]!.body).toMatchObject({ dimensions: 4 });
    const wrong = createOpenAiEmbedder({
      model: 'm',
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      dimensions: 8,
    });
    await expect(wrong.embedDocuments({ texts: ['a'] })).rejects.toThrow(/4 dimensions, expected 8/);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (request) => ({
        status: 401,
        json: {
          error: { message: `Incorrect API key provided: ${request.headers['authorization']}`, type: 'auth' },
        },
      }),
    });
    const embedder = createOpenAiEmbedder({ model: 'test-embed', baseURL: server.baseUrl, apiKey: API_KEY });
    const error = (await embedder.embedDocuments({ texts: ['x'] }).catch((caught) => caught)) as Error;
    expect(error.message).toMatch(/^openai:test-embed embeddings request failed \(HTTP 401\)/);
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(API_KEY);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1); // 401 is not retried
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 401, retryable: false });
  });

  it('stops waiting when the signal aborts', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (request) => ({ ...embeddingsReply(request), delayMs: 5000 }),
    });
    const embedder = createOpenAiEmbedder({ model: 'm', baseURL: server.baseUrl, apiKey: API_KEY });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    // The reply comes after 5 s with valid vectors: rejecting with the reason means it stopped waiting.
    await expect(embedder.embedDocuments({ texts: ['a'], signal: controller.signal })).rejects.toThrow(
      'user cancelled',
    );
  });

  it('needs a key unless a custom endpoint is given, and never reads one from the environment', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-the-environment-0123456789');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:1/v1');
    try {
      expect(() => createOpenAiEmbedder({ model: 'm' })).toThrow(/needs an API key/);
      expect(() => createOpenAiEmbedder({ model: 'm', baseURL: 'http://127.0.0.1:1/v1' })).not.toThrow();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('never puts a truncated start of the key in an error, whatever the key looks like', async () => {
    const key = 'lmeKEY-embed-9f83jd02kd93kdlsa';
    server = await startOpenAiWireServer({
      '/embeddings': () => ({
        status: 403,
        json: { error: { message: `Key ${key.slice(0, 12)}... is not allowed`, type: 'auth' } },
      }),
    });
    const embedder = createOpenAiEmbedder({ model: 'm', baseURL: server.baseUrl, apiKey: key });
    const error = (await embedder.embedDocuments({ texts: ['x'] }).catch((caught) => caught)) as Error;
    expect(error.message).toContain('HTTP 403');
    expect(error.message).not.toContain(key.slice(0, 8));
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder } from '../embedding/openai-embedder.js';
import { createOpenAiChatClient } from '../llm/openai-chat-client.js';
import {
  chatCompletionReply,
  type OpenAiWireServer,
  startOpenAiWireServer,
} from '../testing/openai-wire-server.js';
import { cappedRetryFetch } from './capped-retry-fetch.js';
import { MAX_RETRY_WAIT_MS } from './json-client.js';

let server: OpenAiWireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const busy = (seconds: string) => ({
  status: 429,
  headers: { 'retry-after': seconds },
  json: { error: { message: 'slow down' } },
});

describe('cappedRetryFetch (the fetch the openai package is given)', () => {
  it('waits at most 30 s for a Retry-After of 99999 from a reader or judge, then the package retries at once', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (_request, index) => (index === 0 ? busy('99999') : chatCompletionReply('Yes.')),
    });
    const waits: number[] = [];
    const client = createOpenAiChatClient({
      baseURL: server.baseUrl,
      apiKey: 'sk-test',
      maxRetries: 2,
      retrySleep: async (ms) => {
        waits.push(ms);
      },
    });
    const reply = await client.complete({
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
      temperature: 0,
      maxTokens: 8,
    });
    expect(reply.text).toBe('Yes.');
    expect(waits).toEqual([MAX_RETRY_WAIT_MS]);
    expect(MAX_RETRY_WAIT_MS).toBe(30_000);
    expect(server.requests).toHaveLength(2);
  });

  it('caps retry-after-ms and HTTP-date waits too, and keeps short ones as asked', async () => {
    const waits: number[] = [];
    const answers = [
      new Response('{}', { status: 503, headers: { 'retry-after-ms': '5000000' } }),
      new Response('{}', {
        status: 429,
        headers: { 'retry-after': new Date(Date.now() + 864e5).toUTCString() },
      }),
      new Response('{}', { status: 429, headers: { 'retry-after': '2' } }),
    ];
    const capped = cappedRetryFetch({
      maxRetries: 5,
      fetch: async () => answers.shift()!,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await capped('http://127.0.0.1/x', { headers: { 'x-stainless-retry-count': '0' } });
      expect(response.headers.get('retry-after-ms')).toBe('0');
      expect(response.headers.get('retry-after')).toBeNull();
    }
    expect(waits).toEqual([30_000, 30_000, 2000]);
  });

  it('does not wait before handing back the answer to the last attempt, or one the package will not retry', async () => {
    const waits: number[] = [];
    const capped = cappedRetryFetch({
      maxRetries: 2,
      fetch: async () => new Response('{}', { status: 429, headers: { 'retry-after': '10' } }),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const last = await capped('http://127.0.0.1/x', { headers: { 'x-stainless-retry-count': '2' } });
    expect(last.headers.get('retry-after')).toBe('10');
    const notRetried = cappedRetryFetch({
      maxRetries: 2,
      fetch: async () => new Response('{}', { status: 400, headers: { 'retry-after': '10' } }),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await notRetried('http://127.0.0.1/x');
    expect(waits).toEqual([]);
  });

  it('ends the wait at once when the request is aborted (one SIGTERM stops a run waiting on a busy server)', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => busy('99999') });
    const controller = new AbortController();
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const client = createOpenAiChatClient({
      baseURL: server.baseUrl,
      apiKey: 'sk-test',
      maxRetries: 3,
      // A wait that only the signal ends: nothing but the abort can settle it.
      retrySleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          waiting();
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const reply = client.complete({
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
      temperature: 0,
      maxTokens: 8,
      signal: controller.signal,
    });
    await started;
    controller.abort(new Error('interrupted'));
    await expect(reply).rejects.toThrow('interrupted');
    expect(server.requests).toHaveLength(1);
  });

  it('caps the embedder’s waits too', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (_request, index) =>
        index === 0
          ? busy('99999')
          : {
              json: {
                object: 'list',
                data: [{ object: 'embedding', index: 0, embedding: [1, 0] }],
                model: 'e',
              },
            },
    });
    const waits: number[] = [];
    const embedder = createOpenAiEmbedder({
      model: 'e',
      baseURL: server.baseUrl,
      maxRetries: 1,
      retrySleep: async (ms) => {
        waits.push(ms);
      },
    });
    await embedder.embedQuery({ text: 'q' });
    expect(waits).toEqual([30_000]);
    expect(server.requests).toHaveLength(2);
  });
});

import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { groupConfig } from '../config/run-sections.js';
import { createHttpProvider } from '../providers/http/http-provider.js';
import { sampleConfig } from '../testing/sample-run.js';
import { serve } from './serve.js';

const config = () => sampleConfig({}, 'lme-serve-safety-');

type ResponseBody = { error: { message: string } };

/** One session of `turns` user turns of `size` characters each. */
function bulkySession(id: string, turns: number, size: number) {
  return {
    session_id: id,
    date: '2023/05/30 (Tue) 23:40',
    turns: Array.from({ length: turns }, (_, index) => ({
      role: 'user',
      content: `${id} `.padEnd(size, 'x'),
      turn_index: index,
    })),
  };
}

describe('serve safety', () => {
  const send = async (
    url: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as ResponseBody,
    };
  };

  it('refuses a body not sent as application/json with 415 (a page cannot post text/plain to it)', async () => {
    const server = await serve({ sections: groupConfig(config()), port: 0 });
    try {
      const plain = await send(server.url, '/v1/reset', { namespace: 'a' }, { 'content-type': 'text/plain' });
      expect(plain).toMatchObject({
        status: 415,
        body: {
          error: {
            message: '/v1/reset takes a JSON body sent as content-type application/json (got text/plain).',
          },
        },
      });
      const form = await send(
        server.url,
        '/v1/reset',
        { namespace: 'a' },
        {
          'content-type': 'application/x-www-form-urlencoded',
        },
      );
      expect(form.status).toBe(415);
      const charset = await send(
        server.url,
        '/v1/reset',
        { namespace: 'a' },
        {
          'content-type': 'application/json; charset=utf-8',
        },
      );
      expect(charset.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('with a token, answers 401 to a request without the right bearer token', async () => {
    const token = 'serve-token-0123456789';
    const server = await serve({ sections: groupConfig(config()), port: 0, authToken: token });
    try {
      const json = { 'content-type': 'application/json' };
      const missing = await send(server.url, '/v1/reset', { namespace: 'a' });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect(missing.body.error.message).toBe(
        'missing or wrong credentials: send Authorization: Bearer <token>.',
      );
      expect(missing.body.error.message).not.toContain(token);
      const wrong = await send(
        server.url,
        '/v1/reset',
        { namespace: 'a' },
        { ...json, authorization: 'Bearer nope' },
      );
      expect(wrong.status).toBe(401);
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(401);
      const right = await send(
        server.url,
        '/v1/reset',
        { namespace: 'a' },
        {
          ...json,
          authorization: `Bearer ${token}`,
        },
      );
      expect(right.status).toBe(200);
      // The http provider sends the whole header value it is given.
      const provider = createHttpProvider({
        url: server.url,
        timeoutMs: 30_000,
        maxRetries: 0,
        granularity: 'session',
        indexRoles: 'user',
        authHeaderEnv: 'LME_SERVE_TEST_TOKEN',
        environment: { LME_SERVE_TEST_TOKEN: `Bearer ${token}` },
      });
      expect(await provider.health()).toMatchObject({ status: 'ok' });
    } finally {
      await server.close();
    }
  });

  it('drops least recently used namespaces beyond its memory bound, and refuses with 507 an ingest that alone exceeds it', async () => {
    // Each session: 10 turns of 10,000 characters, about 0.6 MB by the server's estimate.
    const server = await serve({
      sections: groupConfig(config()),
      port: 0,
      maxMemoryBytes: 1.5 * 1024 * 1024,
    });
    try {
      for (const name of ['a', 'b', 'c']) {
        const ingested = await send(server.url, '/v1/ingest', {
          namespace: name,
          sessions: [bulkySession(`${name}1`, 10, 10_000)],
        });
        expect(ingested.status).toBe(200);
      }
      const search = (namespace: string) =>
        send(server.url, '/v1/search', { namespace, query: 'x', top_k: 1 });
      expect((await search('a')).status).toBe(404);
      expect((await search('b')).status).toBe(200);
      expect((await search('c')).status).toBe(200);
      const health = (await (await fetch(`${server.url}/v1/health`)).json()) as { memory_mb: number };
      expect(health.memory_mb).toBeLessThanOrEqual(1.5);

      const huge = await send(server.url, '/v1/ingest', {
        namespace: 'huge',
        sessions: [bulkySession('h1', 30, 10_000)],
      });
      expect(huge.status).toBe(507);
      expect(huge.body.error.message).toMatch(
        /^ingest refused: namespace "huge" would hold about 1\.7 MB, over the server's memory bound of 1\.5 MB \(lme serve --max-memory-mb\)\.$/,
      );
      // Nothing was evicted for the refused ingest.
      expect((await search('b')).status).toBe(200);
      expect((await search('c')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  /** A POST that declares `declared` bytes and sends `sent` of them, then waits for the answer. */
  const partialPost = (url: string, declared: number, sent: number) =>
    new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
      const started = Date.now();
      const outgoing = request(`${url}/v1/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': declared },
      });
      outgoing.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text, ms: Date.now() - started }),
        );
      });
      outgoing.on('error', reject);
      outgoing.write(Buffer.alloc(sent, ' '));
    });

  it('bounds the bytes of all bodies in flight (413 for one too large, 503 when others hold the rest) and times out a stalled body in seconds', async () => {
    const MB = 1024 * 1024;
    const server = await serve({
      sections: groupConfig(config()),
      port: 0,
      maxMemoryBytes: 4 * MB,
      requestTimeoutMs: 1500,
    });
    try {
      const tooLarge = await partialPost(server.url, 5 * MB, 1000);
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.text).error.message).toBe(
        'request body over 4194304 bytes (4 MB), the most one request may send; send fewer sessions per ingest.',
      );
      // Six bodies that stall after 1.5 MB of 2 MB: the bytes they send count, so at most two
      // of them fit in 4 MB (then time out); the others are refused as their bytes arrive.
      const stalled = await Promise.all(
        Array.from({ length: 6 }, () => partialPost(server.url, 2 * MB, 1.5 * MB)),
      );
      const statuses = stalled.map((result) => result.status);
      expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(3);
      expect(statuses.every((status) => status === 503 || status === 408)).toBe(true);
      const busy = stalled.find((result) => result.status === 503)!;
      expect(JSON.parse(busy.text).error.message).toMatch(
        /^request bodies in flight already hold [\d.]+ MB of the 4 MB this server allows; retry when they are answered\.$/,
      );
      for (const result of stalled) expect(result.ms).toBeLessThan(5000);
      // Once answered, their bytes are free again.
      const fine = await send(server.url, '/v1/ingest', {
        namespace: 'a',
        sessions: [bulkySession('a1', 2, 100)],
      });
      expect(fine.status).toBe(200);
    } finally {
      await server.close();
    }
  }, 20_000);

  // Issue 36, item 6: a declared Content-Length reserved the shared budget before any byte came,
  // so four idle connections declaring the whole budget locked every other ingest out (503).
  it('counts the bytes that arrive, not the bytes declared: idle connections lock nobody out', async () => {
    const MB = 1024 * 1024;
    const server = await serve({
      sections: groupConfig(config()),
      port: 0,
      maxMemoryBytes: 4 * MB,
      requestTimeoutMs: 3000,
    });
    try {
      const idle = Array.from({ length: 4 }, () => partialPost(server.url, 1 * MB, 0));
      // The idle requests are in before the ingest: their headers are read once health answers after them.
      await new Promise((resolve) => setImmediate(resolve));
      await fetch(`${server.url}/v1/health`);
      const ingest = await send(server.url, '/v1/ingest', {
        namespace: 'a',
        sessions: [bulkySession('a1', 2, 100)],
      });
      expect(ingest.status).toBe(200);
      const statuses = (await Promise.all(idle)).map((result) => result.status);
      expect(statuses).toEqual([408, 408, 408, 408]);
    } finally {
      await server.close();
    }
  }, 20_000);
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createJsonClient,
  type JsonClientOptions,
  JsonRequestError,
  parseRetryAfter,
} from './json-client.js';
import { isRetryableStatus, ServiceError } from './service-error.js';

type Reply = { status?: number; headers?: Record<string, string>; text?: string; hang?: boolean };

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A loopback server answering the n-th request (from 0) with `replies(n)`; counts requests. */
async function startServer(replies: (index: number) => Reply) {
  let count = 0;
  server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      const reply = replies(count++);
      if (reply.hang) return;
      outgoing.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      outgoing.end(reply.text ?? '{}');
    });
  });
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

/** A client whose waits are recorded instead of slept. */
function client(url: string, overrides: Partial<JsonClientOptions> = {}) {
  const waits: number[] = [];
  const json = createJsonClient({
    baseUrl: url,
    timeoutMs: 2000,
    maxRetries: 2,
    retryBaseDelayMs: 100,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
  });
  return { json, waits };
}

describe('createJsonClient', () => {
  it('waits as retry-after asks, bounded by maxRetryDelayMs, and gives up after maxRetries', async () => {
    const { url, requests } = await startServer(() => ({ status: 503, headers: { 'retry-after': '3600' } }));
    const { json, waits } = client(url, { maxRetryDelayMs: 20 });
    await expect(json.request({ method: 'POST', path: '/v1/reset', body: {} })).rejects.toThrow(
      `POST ${url}/v1/reset failed: HTTP 503 (body: {}) after 3 attempts.`,
    );
    expect(waits).toEqual([20, 20]);
    expect(requests()).toBe(3);
  });

  // Issue 36: `retry-after: 100000` could make a 500-question run take 12 h.
  it('caps the waits of all requests together, and stops calling a server after 5 failed requests in a row', async () => {
    const { url, requests } = await startServer(() => ({
      status: 503,
      headers: { 'retry-after': '100000' },
    }));
    const { json, waits } = client(url, {
      maxRetries: 3,
      maxRetryDelayMs: 30_000,
      maxTotalRetryWaitMs: 100_000,
    });
    const outcomes: string[] = [];
    for (let question = 0; question < 20; question++) {
      outcomes.push(
        await json.request({ method: 'POST', path: '/v1/search', body: {} }).then(
          () => 'ok',
          (error: Error) => error.message,
        ),
      );
    }
    // 3 waits of 30 s fit in 100 s; after them, failures are final.
    expect(waits).toEqual([30_000, 30_000, 30_000]);
    expect(outcomes[1]).toBe(
      `POST ${url}/v1/search failed: HTTP 503 (body: {}). Not retried: this run already waited 90 s for ${url}, the most it waits (100 s).`,
    );
    // Five requests reached the server (the first with its 3 retries), then none.
    expect(requests()).toBe(4 + 4);
    expect(outcomes[5]).toMatch(
      new RegExp(
        `^POST ${url}/v1/search not sent: the last 5 requests to ${url} failed \\(the last: .*\\); lme stopped calling it\\.`,
      ),
    );
    expect(outcomes.slice(5).every((outcome) => outcome.includes('not sent'))).toBe(true);
  });

  it('starts counting failures in a row again after a success, and never counts a refused request', async () => {
    const { url, requests } = await startServer((index) =>
      index % 3 === 2 ? {} : index % 3 === 1 ? { status: 400 } : { status: 500 },
    );
    const { json } = client(url, { maxRetries: 0, maxConsecutiveFailures: 2 });
    const results: string[] = [];
    for (let call = 0; call < 9; call++)
      results.push(
        await json.request({ method: 'GET', path: '/' }).then(
          () => 'ok',
          () => 'failed',
        ),
      );
    expect(results.filter((result) => result === 'ok')).toHaveLength(3);
    expect(requests()).toBe(9);
  });

  // Issue 36: a provider's redirect to another host was followed silently, data and key included.
  it('refuses a redirect, naming where it points without its query', async () => {
    let calls = 0;
    const elsewhere = createServer((incoming, outgoing) => {
      calls++;
      incoming.resume();
      outgoing.end('{}');
    });
    await new Promise<void>((ready) => elsewhere.listen(0, '127.0.0.1', ready));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/collect?key=secret`;
    try {
      const { url, requests } = await startServer(() => ({ status: 307, headers: { location: target } }));
      const { json, waits } = client(url);
      await expect(json.request({ method: 'POST', path: '/v1/ingest', body: { a: 1 } })).rejects.toThrow(
        `POST ${url}/v1/ingest answered HTTP 307, a redirect to ${target.replace('?key=secret', '')}; lme does not follow redirects (its requests carry the data and the key): set the address that answers.`,
      );
      expect(calls).toBe(0);
      expect(requests()).toBe(1);
      expect(waits).toEqual([]);
    } finally {
      await new Promise<void>((done) => elsewhere.close(() => done()));
    }
  });

  it('honours a short retry-after, and backs off exponentially without one', async () => {
    const { url } = await startServer((index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '2' } }
        : index === 1
          ? { status: 502 }
          : { text: '{"ok": true}' },
    );
    const { json, waits } = client(url, { maxRetries: 3 });
    expect(await json.request({ method: 'GET', path: '/v1/health' })).toEqual({ ok: true });
    expect(waits).toEqual([2000, 200]);
  });

  it('retries a refused connection, then names its code', async () => {
    const { url } = await startServer(() => ({}));
    server!.close();
    server!.closeAllConnections();
    server = undefined;
    const { json, waits } = client(url);
    await expect(
      json.request({ method: 'GET', path: '/v1/health', context: 'question q1: ' }),
    ).rejects.toThrow(
      new RegExp(
        `^question q1: GET ${url.replace(/[.:/]/g, '\\$&')}/v1/health failed: ECONNREFUSED.* after 3 attempts\\.$`,
      ),
    );
    expect(waits).toEqual([100, 200]);
  });

  it('retries a 503, then returns the 200 body', async () => {
    const { url, requests } = await startServer((index) =>
      index === 0 ? { status: 503, text: 'busy' } : { text: '{"ok": 1}' },
    );
    const { json, waits } = client(url);
    expect(await json.request({ method: 'POST', path: '/v1/search', body: {} })).toEqual({ ok: 1 });
    expect(requests()).toBe(2);
    expect(waits).toEqual([100]);
  });

  it('retries a timed-out attempt', async () => {
    const { url, requests } = await startServer((index) => (index === 0 ? { hang: true } : { text: '[1]' }));
    // Long enough that the answering attempt never times out on a loaded machine.
    const { json, waits } = client(url, { timeoutMs: 750 });
    expect(await json.request({ method: 'GET', path: '/a' })).toEqual([1]);
    expect(requests()).toBe(2);
    expect(waits).toEqual([100]);
  });

  it('names the timeout and the attempts when no attempt is answered', async () => {
    const hung = await startServer(() => ({ hang: true }));
    const failure = await client(hung.url, { timeoutMs: 50, maxRetries: 1 })
      .json.request({ method: 'GET', path: '/b' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).message).toBe(`GET ${hung.url}/b timed out after 50 ms (2 attempts).`);
    expect(failure).toMatchObject({ retryable: true, status: undefined });
    expect(hung.requests()).toBe(2);
  });

  it('bounds the wait between bytes of a reply that has begun (idleTimeoutMs), not only the whole attempt', async () => {
    let writes = 0;
    server = createServer((incoming, outgoing) => {
      incoming.resume();
      incoming.on('end', () => {
        // Headers and one byte, then nothing more: a server dripping its reply.
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        outgoing.write('[');
        writes++;
      });
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const failure = await client(url, { timeoutMs: 600_000, idleTimeoutMs: 50, maxRetries: 0 })
      .json.request({ method: 'POST', path: '/v1/search', body: {} })
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe(`POST ${url}/v1/search sent no byte of its reply for 50 ms.`);
    expect(writes).toBe(1);
  });

  it('fails at once, unretried, on invalid JSON or a client error, carrying the status', async () => {
    const replies: Reply[] = [
      { text: '{"hits": [' },
      { status: 400, text: '{"error": {"message": "no"}}' },
      { status: 404, text: 'missing' },
    ];
    const { url, requests } = await startServer((index) => replies[index]!);
    const { json, waits } = client(url);
    await expect(json.request({ method: 'GET', path: '/b' })).rejects.toThrow(
      /returned invalid JSON \(.+\): \{"hits": \[$/,
    );
    const bad = await json.request({ method: 'POST', path: '/c', body: {} }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(JsonRequestError);
    expect(bad).toBeInstanceOf(ServiceError);
    expect(bad).toMatchObject({
      message: `POST ${url}/c failed: HTTP 400 (server said: no).`,
      status: 400,
      retryable: false,
    });
    await expect(json.request({ method: 'GET', path: '/d' })).rejects.toMatchObject({
      status: 404,
      retryable: false,
    });
    expect(requests()).toBe(3);
    expect(waits).toEqual([]);
  });

  it('marks the last failure of a retried status retryable, with its status', async () => {
    const { url } = await startServer(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const { json, waits } = client(url, { maxRetries: 1 });
    await expect(json.request({ method: 'GET', path: '/' })).rejects.toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 1000,
    });
    expect(waits).toEqual([1000]);
  });

  it('redacts what the server echoes before quoting it, so a cut cannot keep part of a secret', async () => {
    const secret = 'x'.repeat(195) + 'SECRETtoken-0123456789';
    const { url } = await startServer(() => ({
      status: 400,
      text: JSON.stringify({ error: { message: secret } }),
    }));
    const { json } = client(url, {
      redact: (text) => text.replaceAll('SECRETtoken-0123456789', '[redacted]'),
    });
    const failure = (await json
      .request({ method: 'GET', path: '/' })
      .catch((error: unknown) => error)) as Error;
    // Cut at 200 characters after redaction; cut first, it would keep "SECRE", too short to recognise.
    expect(failure.message).toContain(`${'x'.repeat(195)}[reda…`);
    expect(failure.message).not.toContain('SECRE');
  });
});

describe('a provider reply larger than lme reads', () => {
  it('is refused on its Content-Length, or once it streams past 64 MB, unretried', async () => {
    let streamed = 0;
    let count = 0;
    server = createServer((incoming, outgoing) => {
      incoming.resume();
      incoming.on('end', () => {
        if (count++ === 0) {
          outgoing.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(1.5 * 2 ** 30),
          });
          outgoing.write('{"hits": [');
          return;
        }
        // No length: 1 MB chunks for as long as the client reads.
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1 << 20, ' ');
        const pump = () => {
          while (streamed < 512 * 2 ** 20 && outgoing.write(chunk)) streamed += chunk.length;
          if (streamed < 512 * 2 ** 20) outgoing.once('drain', pump);
        };
        outgoing.on('close', () => outgoing.removeAllListeners('drain'));
        pump();
      });
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { json, waits } = client(url, { timeoutMs: 20_000 });
    await expect(json.request({ method: 'GET', path: '/declared' })).rejects.toThrow(
      `GET ${url}/declared replied with more than 64 MB, the most lme reads of a reply.`,
    );
    await expect(json.request({ method: 'GET', path: '/endless' })).rejects.toThrow(
      `GET ${url}/endless replied with more than 64 MB, the most lme reads of a reply.`,
    );
    expect(count).toBe(2);
    expect(waits).toEqual([]);
    expect(streamed).toBeLessThan(256 * 2 ** 20);
  }, 30_000);
});

describe('parseRetryAfter', () => {
  it('reads retry-after in seconds or as a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});

describe('isRetryableStatus', () => {
  it('retries a request timeout, a rate limit and server trouble, not a client error or 501/505', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 422, 501, 505].some(isRetryableStatus)).toBe(false);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProbeError, probeEndpoint } from './probe-endpoint.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A loopback server answering every request with `status` and `body`; records what it was asked. */
async function serve(status: number, body = '{}', hang = false) {
  const asked: { method: string; url: string; auth: string | undefined }[] = [];
  server = createServer((request, response) => {
    asked.push({ method: request.method!, url: request.url!, auth: request.headers.authorization });
    if (hang) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

async function closedPort(): Promise<string> {
  const { url } = await serve(200);
  await new Promise<void>((done) => server!.close(() => done()));
  server = undefined;
  return url;
}

describe('probeEndpoint', () => {
  it('passes a server that answers, whatever it answers short of refusing the credentials', async () => {
    for (const status of [200, 404, 405, 500]) {
      const { url, asked } = await serve(status, 'not json');
      await expect(
        probeEndpoint({ url: `${url}/v1/models`, headers: { authorization: 'Bearer k' } }),
      ).resolves.toBeUndefined();
      expect(asked).toEqual([{ method: 'GET', url: '/v1/models', auth: 'Bearer k' }]);
      server!.close();
      server = undefined;
    }
  });

  it("returns a 2xx answer's JSON body (a provider's name and version)", async () => {
    const { url } = await serve(200, '{"status": "ok", "name": "my-memory", "version": "1.4.0"}');
    await expect(probeEndpoint({ url: `${url}/v1/health` })).resolves.toEqual({
      status: 'ok',
      name: 'my-memory',
      version: '1.4.0',
    });
  });

  it('refuses a 401 in one attempt, naming the URL and the status, never the body', async () => {
    const { url, asked } = await serve(
      401,
      '{"error": {"message": "Incorrect API key provided: sk-abc12345"}}',
    );
    const failure = await probeEndpoint({ url: `${url}/models` }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProbeError);
    expect(failure).toMatchObject({
      reason: 'unauthorised',
      status: 401,
      detail: `GET ${url}/models answered HTTP 401`,
      message: `GET ${url}/models answered HTTP 401.`,
    });
    expect(asked).toHaveLength(1);
  });

  it('refuses a closed port at once, naming the connection error', async () => {
    const url = await closedPort();
    const failure = await probeEndpoint({ url: `${url}/v1/health` }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: 'unreachable', status: undefined });
    expect((failure as ProbeError).detail).toMatch(
      new RegExp(`^GET ${url.replace(/[.:/]/g, '\\$&')}/v1/health failed: ECONNREFUSED`),
    );
  });

  it('refuses a server that does not answer within the budget, unretried', async () => {
    const { url, asked } = await serve(200, '{}', true);
    await expect(probeEndpoint({ url, timeoutMs: 50 })).rejects.toMatchObject({
      reason: 'unreachable',
      detail: `GET ${url} timed out after 50 ms`,
    });
    expect(asked).toHaveLength(1);
  });
});

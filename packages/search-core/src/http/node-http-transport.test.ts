import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHttpTransport } from './node-http-transport.js';

/**
 * An actix-like raw server: reads a request's headers, waits for its Content-Length body, answers in
 * one write; records the connections and how many reads each request took.
 */
async function startRawServer() {
  const readsPerRequest: number[] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    let buffer = Buffer.alloc(0);
    let reads = 0;
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      reads += 1;
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString())?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        readsPerRequest.push(reads);
        reads = 0;
        const body = '{"result":{"points":[]},"status":"ok","time":0.0001}';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        );
      }
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    readsPerRequest,
    sockets,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('createNodeHttpTransport', () => {
  it('sends each request in one write on one kept-alive connection', async () => {
    const server = await startRawServer();
    close = server.close;
    const transport = createNodeHttpTransport();
    const body = JSON.stringify({ query: Array.from({ length: 384 }, (_, n) => n / 384), limit: 500 });
    for (let n = 0; n < 20; n++) {
      const reply = await transport(
        { url: `${server.url}/collections/c/points/query`, method: 'POST', headers: {}, body },
        'POST query',
      );
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text).status).toBe('ok');
    }
    transport.close();
    expect(server.sockets).toHaveLength(1);
    // Headers and body arrive together: no request waits on the server's delayed ACK.
    expect(server.readsPerRequest).toEqual(Array.from({ length: 20 }, () => 1));
  });

  it('refuses a reply over the cap, naming the request', async () => {
    const server = await startRawServer();
    close = server.close;
    const transport = createNodeHttpTransport({ maxReplyBytes: 10 });
    await expect(
      transport({ url: server.url, method: 'GET', headers: {} }, 'GET http://qdrant/'),
    ).rejects.toThrow('GET http://qdrant/ replied with more than 0 MB, the most lme reads of a reply.');
    transport.close();
  });
});

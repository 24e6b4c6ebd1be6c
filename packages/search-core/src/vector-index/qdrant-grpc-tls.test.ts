import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createQdrantGrpc } from './qdrant-grpc.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('QDRANT_GRPC_URL https:// at a plain-text port', () => {
  it('fails in one sentence saying the port does not speak TLS, with no DEP0123 warning', async () => {
    // A plain-text server: it answers a TLS hello with text, as a plain gRPC or HTTP port does.
    server = createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => warnings.push(warning.code ?? warning.name);
    process.on('warning', onWarning);
    const grpc = createQdrantGrpc({ url: `https://127.0.0.1:${port}`, maxRetries: 0, timeoutMs: 20_000 });
    try {
      const error = await grpc.version().catch((caught: Error) => caught);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(
        /^Qdrant health check at https:\/\/127\.0\.0\.1:\d+ \(gRPC\) failed: UNAVAILABLE \(TLS failed: [^)]*; the port does not speak TLS: use http:\/\/ in QDRANT_GRPC_URL for a plain-text port\)\.$/,
      );
    } finally {
      grpc.close();
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('DEP0123');
  });
});

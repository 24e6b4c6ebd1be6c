import { connect, createServer, type Server, type Socket } from 'node:net';

export type BridgeRelay = { url: string; close(): Promise<void> };

/**
 * A loopback TCP port that forwards each connection to a bridge's unix socket: a bridge in its own
 * network namespace has no port lme can reach, and lme's HTTP client speaks TCP.
 */
export async function startBridgeRelay(socketPath: string): Promise<BridgeRelay> {
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(socketPath);
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

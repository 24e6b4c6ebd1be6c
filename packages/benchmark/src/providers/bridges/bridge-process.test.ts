import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRIDGE_SOURCE_DIR } from './bridge-catalog.js';
import { bridgeIsolation } from './bridge-isolation.js';
import { startBridge } from './bridge-process.js';

// Bridges made of the real protocol server (protocol_server.py, standard library only) over a
// backend that holds nothing, run with the system Python as lme runs the installed ones.
async function script(body: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lme-fake-bridge-')), 'bridge.py');
  await writeFile(path, `import sys\nsys.path.insert(0, ${JSON.stringify(BRIDGE_SOURCE_DIR)})\n${body}\n`);
  return path;
}

const EMPTY_BRIDGE = `
import json, socket, urllib.request, protocol_server
protocol_server.install_socket_guard()
class Backend:
    def reset(self, namespace): pass
    def ingest(self, namespace, sessions): pass
    def search(self, namespace, query, top_k, granularity, date):
        try:
            socket.create_connection(("192.0.2.1", 80), timeout=1)
        except OSError:
            pass
        return []
protocol_server.serve(Backend(), "empty", "1.0.0", 0)
`;

const start = async (path: string, environment: NodeJS.ProcessEnv = process.env) =>
  startBridge({
    name: 'fake',
    python: 'python3',
    script: path,
    args: [],
    environment,
    socketDir: await mkdtemp(join(tmpdir(), 'lme-s-')),
    startTimeoutMs: 60_000,
  });

describe('a bridge process', () => {
  it.each([
    ['in a network namespace where the machine allows one', {}],
    ['on a loopback port with the namespace turned off', { LME_BRIDGE_NETNS: '0' }],
  ])(
    'runs %s, proves it is the child lme started, and is reached',
    async (_, extra) => {
      const environment = { ...process.env, ...extra };
      const bridge = await start(await script(EMPTY_BRIDGE), environment);
      try {
        expect(bridge.isolation).toBe(bridgeIsolation(environment).description);
        const reply = await fetch(`${bridge.url}/v1/search`, {
          method: 'POST',
          body: JSON.stringify({ namespace: 'n', query: 'q', top_k: 1 }),
        });
        expect(await reply.json()).toMatchObject({ hits: [] });
        const health = (await (await fetch(`${bridge.url}/v1/health`)).json()) as Record<string, unknown>;
        expect(health.refused_connections).toEqual(['192.0.2.1']);
        // The token is not answered to a health check without a challenge, nor written to the log.
        expect(health.proof).toBeUndefined();
        expect(bridge.recentLog().join('\n')).not.toMatch(/[0-9a-f]{64}/);
      } finally {
        await bridge.stop();
      }
    },
    60_000,
  );

  it('is refused when the port it prints is held by another process, before anything is sent there', async () => {
    const received: string[] = [];
    const other = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.setHeader('content-type', 'application/json');
      response.end('{"status":"ok","name":"impostor"}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
    const { port } = other.address() as { port: number };
    try {
      const path = await script(
        `import time\nprint("lme-bridge listening on http://127.0.0.1:${port}", flush=True)\ntime.sleep(60)`,
      );
      await expect(start(path)).rejects.toThrow(
        `The fake bridge (${path}) printed http://127.0.0.1:${port}, but the listener there is not the process lme started (no proof of its token)`,
      );
      expect(received).toEqual(['GET /v1/health']);
    } finally {
      other.close();
    }
  }, 60_000);
});

describe('a bridge that dies mid-run', () => {
  it('says how it ended, and only when lme did not stop it', async () => {
    const dying = await start(
      await script(`
import os, sys, protocol_server
class Backend:
    def reset(self, namespace): pass
    def ingest(self, namespace, sessions): pass
    def search(self, namespace, query, top_k, granularity, date):
        print("lme-bridge: out of memory", file=sys.stderr, flush=True)
        os._exit(3)
protocol_server.serve(Backend(), "dying", "1.0.0", 0)
`),
    );
    expect(dying.exitReason()).toBeUndefined();
    await fetch(`${dying.url}/v1/search`, {
      method: 'POST',
      body: JSON.stringify({ namespace: 'n', query: 'q', top_k: 1 }),
    }).catch(() => undefined);
    await expect.poll(() => dying.exitReason(), { timeout: 10_000 }).toBe('exit code 3');
    expect(dying.recentLog()).toContain('lme-bridge: out of memory');
    const stopped = await start(await script(EMPTY_BRIDGE));
    await stopped.stop();
    expect(stopped.exitReason()).toBeUndefined();
  }, 60_000);
});

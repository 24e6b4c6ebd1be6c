import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './run-cli.js';

/** examples/starter-server.py running on a loopback port. */
export type StarterServer = { url: string; stop(): void };

/** Starts examples/starter-server.py (the protocol's reference server) on a free loopback port. */
export function startStarter(): Promise<StarterServer> {
  const child = spawn('python3', [join(REPO_ROOT, 'examples/starter-server.py'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => child.kill();
  return new Promise((resolveServer, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolveServer({ url, stop });
    });
    child.on('exit', (code) =>
      reject(new Error(`starter-server.py exited (${code}) before listening: ${output}`)),
    );
  });
}

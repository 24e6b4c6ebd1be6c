import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bridgeIsolation } from './bridge-isolation.js';
import { bridgeToken, provesBridge } from './bridge-proof.js';
import { type BridgeRelay, startBridgeRelay } from './bridge-relay.js';

/** How long a bridge may take to load its library and model before lme gives up on it. */
export const BRIDGE_START_TIMEOUT_MS = 180_000;
const READY = /^lme-bridge listening on (http:\/\/127\.0\.0\.1:\d+|unix:.+?)\s*$/;
const KEPT_LOG_LINES = 20;

export type BridgeProcess = {
  /** `http://127.0.0.1:<port>`, the address the bridge printed once listening. */
  url: string;
  /** What holds it off the network (config.json `provider.isolation`). */
  isolation: string;
  /** The last lines the bridge logged (stderr), for error messages. */
  recentLog(): string[];
  /** Every line the bridge logged beginning with `lme-bridge:` (ingest and search timings, refusals). */
  bridgeLog(): string[];
  /** How it ended when it exited without being stopped (`exit code 3`, `signal SIGKILL`). */
  exitReason(): string | undefined;
  /** Its peak resident memory so far in bytes (Linux `VmHWM`); undefined where it cannot be read. */
  peakRssBytes(): number | undefined;
  /** Stops the bridge (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
};

/** A process's peak resident memory in bytes, from /proc (Linux); undefined elsewhere or once gone. */
export function peakRssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kilobytes = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}

export type StartBridgeOptions = {
  name: string;
  python: string;
  script: string;
  args: readonly string[];
  startTimeoutMs?: number;
  environment?: NodeJS.ProcessEnv;
  /** Where its unix socket goes when it runs in a network namespace (a folder of its own). */
  socketDir: string;
};

/**
 * Starts a bridge as a child process and resolves once it listens and has proved it is that child
 * (bridge-proof.ts): in a network namespace of its own where the machine allows one
 * (bridge-isolation.ts), listening on a unix socket that a loopback relay serves, else on a free
 * loopback port (it binds port 0 and prints the port it got). A bridge that exits, stays silent or
 * cannot prove itself fails with one sentence and the last lines it logged.
 */
export function startBridge(options: StartBridgeOptions): Promise<BridgeProcess> {
  const isolation = bridgeIsolation(options.environment);
  const token = bridgeToken();
  const socketPath = join(options.socketDir, 'bridge.sock');
  const python = [options.python, '-u', options.script, '--port', '0', ...options.args];
  const command = isolation.namespace ? ['unshare', '-rn', '--', ...python] : python;
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    // No .pyc files written beside the bridge's sources (they ship with lme).
    env: {
      ...(options.environment ?? process.env),
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      LME_BRIDGE_TOKEN: token,
      ...(isolation.namespace ? { LME_BRIDGE_SOCKET: socketPath } : {}),
    },
  });
  let relay: BridgeRelay | undefined;
  const recent: string[] = [];
  const bridgeLines: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    recent.push(line);
    if (recent.length > KEPT_LOG_LINES) recent.shift();
    if (line.startsWith('lme-bridge:')) bridgeLines.push(line);
  });
  const lines = createInterface({ input: child.stdout! });
  let exited = false;
  let stopping = false;
  let exitReason: string | undefined;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    exited = true;
    if (!stopping) exitReason = signal ? `signal ${signal}` : `exit code ${code}`;
  });

  const stop = async () => {
    stopping = true;
    await relay?.close();
    if (exited || child.exitCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exit;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const timeoutMs = options.startTimeoutMs ?? BRIDGE_START_TIMEOUT_MS;
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop();
      const log = recent.length > 0 ? `; its last lines:\n${recent.join('\n')}` : '';
      reject(new Error(`The ${options.name} bridge (${options.script}) ${why}${log}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    child.once('error', (error) => fail(`could not be started (${error.message})`));
    child.once('exit', (code, signal) => fail(`exited before listening (${signal ?? `exit code ${code}`})`));
    lines.on('line', (line) => {
      const ready = READY.exec(line);
      if (!ready) return;
      clearTimeout(timer);
      void (async () => {
        // Only the socket lme named is relayed, whatever path the line names.
        if (ready[1]!.startsWith('unix:')) relay = await startBridgeRelay(socketPath);
        const url = relay?.url ?? ready[1]!;
        if (!(await provesBridge(url, token).catch(() => false))) {
          return fail(
            `printed ${url}, but the listener there is not the process lme started (no proof of its token)`,
          );
        }
        child.removeAllListeners('error');
        resolve({
          url,
          isolation: isolation.description,
          exitReason: () => exitReason,
          recentLog: () => [...recent],
          bridgeLog: () => [...bridgeLines],
          peakRssBytes: () => peakRssOf(child.pid),
          stop,
        });
      })().catch((error: Error) => fail(`could not be reached (${error.message})`));
    });
  });
}

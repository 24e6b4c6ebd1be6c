import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How long a bridge may take to load its library and model before lme gives up on it. */
export const BRIDGE_START_TIMEOUT_MS = 180_000;
const READY = /^lme-bridge listening on (http:\/\/127\.0\.0\.1:\d+)\s*$/;
const KEPT_LOG_LINES = 20;

export type BridgeProcess = {
  /** `http://127.0.0.1:<port>`, the address the bridge printed once listening. */
  url: string;
  /** The last lines the bridge logged (stderr), for error messages. */
  recentLog(): string[];
  /** Every line the bridge logged beginning with `lme-bridge:` (ingest and search timings, refusals). */
  bridgeLog(): string[];
  /** Stops the bridge (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
};

export type StartBridgeOptions = {
  name: string;
  python: string;
  script: string;
  args: readonly string[];
  startTimeoutMs?: number;
  environment?: NodeJS.ProcessEnv;
};

/**
 * Starts a bridge as a child process on a free loopback port (it binds port 0 and prints the port
 * it got) and resolves once it listens. A bridge that exits or stays silent fails with one sentence
 * and the last lines it logged.
 */
export function startBridge(options: StartBridgeOptions): Promise<BridgeProcess> {
  const child: ChildProcess = spawn(options.python, ['-u', options.script, '--port', '0', ...options.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // No .pyc files written beside the bridge's sources (they ship with lme).
    env: { ...(options.environment ?? process.env), PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
  });
  const recent: string[] = [];
  const bridgeLines: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    recent.push(line);
    if (recent.length > KEPT_LOG_LINES) recent.shift();
    if (line.startsWith('lme-bridge:')) bridgeLines.push(line);
  });
  const lines = createInterface({ input: child.stdout! });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => {
    exited = true;
  });

  const stop = async () => {
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
      child.removeAllListeners('error');
      resolve({
        url: ready[1]!,
        recentLog: () => [...recent],
        bridgeLog: () => [...bridgeLines],
        stop,
      });
    });
  });
}

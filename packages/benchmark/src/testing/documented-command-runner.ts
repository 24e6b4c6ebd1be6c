import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * How a documented command runs in a test, and the stand-ins it runs against:
 *
 * - `lme`, `pnpm lme` and `pnpm -s lme` are the checkout's `node packages/benchmark/bin/lme.js`;
 *   `pnpm tsx` is the checkout's tsx. Setup the checkout has already done (`npm i -g pnpm@…`,
 *   `pnpm install --frozen-lockfile`) is left out of a command chain.
 * - The working folder is a temporary one holding links to the checkout's packages, configs and
 *   scripts, so `results/` and `.lme-cache/` land there.
 * - The dataset files the docs name are committed stand-ins, copied where each benchmark's
 *   `benchmarks/<name>/docs-stand-ins.json` says, whole or cut to some of their records
 *   (LongMemEval's `s`, `oracle` and `m` in `LME_DATA_DIR` are seven questions of the committed
 *   sample, one of each type and an abstention; LoCoMo's files are its committed fixture).
 * - Every embedding model is an OpenAI-compatible loopback stand-in (hash vectors): `--embedder`
 *   of `run`, `ablate` and the warm-up script is set to it, so no model is fetched.
 * - Chat models (reader, judge) are the same loopback server (`OPENAI_BASE_URL`); the provider URL
 *   of a block with no `lme serve` is a loopback memory system; ports are mapped to free ones.
 * - Nothing reaches the network: `LME_HUB_URL` points at a closed loopback port.
 */

export const STAND_IN_EMBEDDER = 'openai:lme-docs-stand-in';

const LINKED = [
  'packages',
  'node_modules',
  'configs',
  'examples',
  'scripts',
  'docs',
  'package.json',
  'pnpm-workspace.yaml',
  'tsconfig.json',
  'tsconfig.base.json',
];

/** A working folder for one docs page's commands, with the stand-in data beside it. */
export function prepareWorkspace(root: string): { cwd: string; dataDir: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'lme-docs-'));
  for (const name of LINKED) symlinkSync(join(root, name), join(cwd, name));
  mkdirSync(join(cwd, 'datasets'));
  mkdirSync(join(cwd, 'results'));
  for (const name of ['sample', 'fixtures'])
    symlinkSync(join(root, 'datasets', name), join(cwd, 'datasets', name));
  const dataDir = join(cwd, 'data');
  mkdirSync(dataDir);
  const benchmarksDir = join(root, 'packages/benchmark/src/benchmarks');
  for (const entry of readdirSync(benchmarksDir, { withFileTypes: true })) {
    const standIns = join(benchmarksDir, entry.name, 'docs-stand-ins.json');
    if (!entry.isDirectory() || !existsSync(standIns)) continue;
    const { files } = JSON.parse(readFileSync(standIns, 'utf8')) as { files: Record<string, StandIn> };
    for (const [target, standIn] of Object.entries(files)) {
      if (typeof standIn === 'string') copyFileSync(join(root, standIn), join(cwd, target));
      else writeFileSync(join(cwd, target), cutStandIn(root, standIn));
    }
  }
  return { cwd, dataDir };
}

/**
 * A stand-in of docs-stand-ins.json: a committed file copied as it is, or a committed JSON array of
 * records (gzipped when its name ends in .gz) cut to the records at `keep`, written in the same form.
 */
type StandIn = string | { file: string; keep: number[] };

const cutStandIns = new Map<string, Buffer>();

/** The cut file's bytes, made once per test process (every docs page's folder gets a copy). */
function cutStandIn(root: string, { file, keep }: { file: string; keep: number[] }): Buffer {
  const key = `${file}:${keep.join(',')}`;
  let bytes = cutStandIns.get(key);
  if (bytes === undefined) {
    const zipped = file.endsWith('.gz');
    const raw = readFileSync(join(root, file));
    const records = JSON.parse((zipped ? gunzipSync(raw) : raw).toString('utf8')) as unknown[];
    const text = Buffer.from(JSON.stringify(keep.map((index) => records[index])));
    bytes = zipped ? gzipSync(text) : text;
    cutStandIns.set(key, bytes);
  }
  return bytes;
}

export type RewriteContext = {
  readonly root: string;
  /** Documented port → the port the test uses. */
  readonly ports: ReadonlyMap<string, number>;
};

const LME = /(^|&&\s*|;\s*|\|\s*|^(?:[A-Z_]+=\S+\s+)+)(?:pnpm\s+(?:-s\s+)?lme|lme)(?=\s|$)/g;
const EMBEDDING_COMMAND = /lme\.js\s+(run|ablate)\b|scripts\/warm-embeddings\.ts/;

/** The command as the test runs it (see the module comment). */
export function rewriteCommand(command: string, context: RewriteContext): string {
  const lme = `node ${join(context.root, 'packages/benchmark/bin/lme.js')}`;
  let text = command
    .split(/\s*&&\s*/)
    .filter(
      (part) => !/^npm i(nstall)? -g pnpm@/.test(part) && !/^pnpm install --frozen-lockfile$/.test(part),
    )
    .join(' && ');
  text = text.replace(LME, (_match, before: string) => `${before}${lme}`);
  text = text.replace(
    /(^|&&\s*)pnpm\s+(?:-s\s+)?tsx(?=\s)/g,
    (_m, before: string) => `${before}${join(context.root, 'node_modules/.bin/tsx')}`,
  );
  if (EMBEDDING_COMMAND.test(text)) {
    text = /--embedder\s+\S+/.test(text)
      ? text.replace(/--embedder\s+\S+/g, `--embedder ${STAND_IN_EMBEDDER}`)
      : `${text} --embedder ${STAND_IN_EMBEDDER}`;
  }
  return text.replace(/(127\.0\.0\.1:|--port\s+)(\d+)/g, (match, before: string, port: string) => {
    const mapped = context.ports.get(port);
    return mapped === undefined ? match : `${before}${mapped}`;
  });
}

/** The ports a block names (`127.0.0.1:<port>`, `--port <port>`), and which of them `lme serve` takes. */
export function portsOf(commands: readonly string[]): { named: Set<string>; served: Set<string> } {
  const named = new Set<string>();
  const served = new Set<string>();
  for (const command of commands) {
    for (const match of command.matchAll(/(?:127\.0\.0\.1:|--port\s+)(\d+)/g)) named.add(match[1]!);
    if (/\blme\s+serve\b/.test(command)) {
      const port = /--port\s+(\d+)/.exec(command)?.[1];
      if (port) served.add(port);
    }
  }
  return { named, served };
}

/** A free loopback port (listened on and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type CommandResult = { status: number | null; output: string };

/** Runs one command with bash in `cwd`, to its end (or `timeoutMs`, then killed: status null). */
export function runShell(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: options.cwd, env: options.env, detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => killGroup(child), options.timeoutMs);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status: signal ? null : status, output });
    });
  });
}

/** Starts a long-running command (a server) in the background; stop it with `killGroup`. */
export function startShell(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcess {
  return spawn('bash', ['-c', `exec ${command}`], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: 'ignore',
  });
}

/** Ends a process started here and everything it started (its process group). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

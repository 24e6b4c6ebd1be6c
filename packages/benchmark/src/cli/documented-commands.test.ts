import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeQdrant, startFakeQdrant } from '@lme/search-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  killGroup,
  portsOf,
  prepareWorkspace,
  rewriteCommand,
  runShell,
  startShell,
} from '../testing/documented-command-runner.js';
import { type DocumentedBlock, documentedBlocks } from '../testing/documented-commands.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { type StandInServer, startOpenAiStandIn, startProviderStandIn } from '../testing/stand-in-servers.js';

/**
 * Every shell command of README.md and docs/*.md, run as documented-command-runner.ts describes
 * (the checkout's lme, the sample for s/oracle/m, loopback stand-ins for models and memory
 * systems), checked to exit as its block declares. A block marked `skip` is listed with its reason.
 */

const PAGES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].sort();
const blocksByPage = new Map(
  PAGES.map((page) => [page, documentedBlocks(readFileSync(join(REPO_ROOT, page), 'utf8'), page)] as const),
);

/** Skipped blocks allowed in all: each needs the network, a big dataset (BEAM's, LoCoMo-Plus's and REALTALK's real files among them), a server or the whole suite. */
const MAX_SKIPPED_BLOCKS = 19;
const COMMAND_TIMEOUT_MS = 180_000;

let openAi: StandInServer;
let provider: StandInServer;
/** QDRANT_URL and QDRANT_GRPC_URL of every page: the loopback stand-in of Qdrant's REST and gRPC APIs. */
let qdrant: FakeQdrant;
/** One embedding and LLM cache for every page, as a user's .lme-cache serves every run. */
let cacheDir: string;
const ran: string[] = [];
const skipped: string[] = [];

beforeAll(async () => {
  openAi = await startOpenAiStandIn();
  provider = await startProviderStandIn();
  qdrant = await startFakeQdrant({ grpc: true });
  cacheDir = mkdtempSync(join(tmpdir(), 'lme-docs-cache-'));
});

afterAll(async () => {
  await Promise.all([openAi?.close(), provider?.close(), qdrant?.close()]);
  const skippedCommands = skipped.reduce(
    (sum, line) => sum + Number(/\((\d+) commands?\)/.exec(line)?.[1] ?? 0),
    0,
  );
  console.log(
    `documented commands: ${ran.length} run, ${skippedCommands} skipped (${skipped.length} blocks)\n${skipped.map((line) => `  skipped ${line}`).join('\n')}`,
  );
  rmSync(cacheDir, { recursive: true, force: true });
});

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listened on port ${port}`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

async function runBlock(block: DocumentedBlock, cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const failures: string[] = [];
  const { named, served } = portsOf(block.commands);
  const ports = new Map<string, number>();
  for (const port of named) ports.set(port, served.has(port) ? await freePort() : provider.port);
  const context = { root: REPO_ROOT, ports };
  const servers = [];
  try {
    for (const command of block.commands) {
      const shell = rewriteCommand(command, context);
      const where = `${block.file}:${block.line}: ${command}`;
      ran.push(where);
      if (/\blme\s+serve\b/.test(command)) {
        servers.push(startShell(shell, { cwd, env }));
        const port = ports.get(/--port\s+(\d+)/.exec(command)?.[1] ?? '');
        if (port !== undefined) await waitForPort(port, 60_000);
        continue;
      }
      const result = await runShell(shell, { cwd, env, timeoutMs: COMMAND_TIMEOUT_MS });
      if (result.status !== block.expectedExit) {
        failures.push(
          `${where}\n  exit ${result.status} (expected ${block.expectedExit})\n  ${result.output.slice(-1500)}`,
        );
      }
    }
  } finally {
    for (const server of servers) killGroup(server);
  }
  return failures;
}

describe('every shell command in README.md and docs/', () => {
  it('finds blocks, and skips few of them, each with its reason', () => {
    const all = [...blocksByPage.values()].flat();
    expect(all.length).toBeGreaterThan(20);
    const skippedBlocks = all.filter((block) => block.skip);
    expect(skippedBlocks.length).toBeLessThanOrEqual(MAX_SKIPPED_BLOCKS);
    for (const block of skippedBlocks) expect(block.skip).toMatch(/\w+ \w+/);
  });

  it("docs/ci.md's steps are the workflow's one-line run steps, in its order", () => {
    const workflow = readFileSync(join(REPO_ROOT, '.github/workflows/lme.yml'), 'utf8');
    const runSteps = [...workflow.matchAll(/^\s+run: (.+)$/gm)]
      .map((match) => match[1]!.trim())
      .filter((step) => step !== '|');
    const steps = blocksByPage.get('docs/ci.md')![0]!.commands;
    expect(steps).toEqual(runSteps);
  });

  for (const [page, blocks] of blocksByPage) {
    if (blocks.length === 0) continue;
    // Pages run side by side (each in its own folder; the cache is safe to share), blocks in order.
    it.concurrent(`${page}: every command exits as documented`, { timeout: 900_000 }, async ({ expect }) => {
      const { cwd, dataDir } = prepareWorkspace(REPO_ROOT);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        LME_DATA_DIR: dataDir,
        LME_CACHE_DIR: cacheDir,
        OPENAI_BASE_URL: `${openAi.url}/v1`,
        OPENAI_API_KEY: 'docs-test-key-7f3a9c',
        QDRANT_URL: qdrant.url,
        QDRANT_GRPC_URL: qdrant.grpcUrl,
        LME_HUB_URL: 'http://127.0.0.1:9',
        NO_COLOR: '1',
      };
      delete env.LME_MODEL_DIR;
      const failures: string[] = [];
      try {
        for (const block of blocks) {
          if (block.skip) {
            skipped.push(`${block.file}:${block.line} (${block.commands.length} commands): ${block.skip}`);
            continue;
          }
          failures.push(...(await runBlock(block, cwd, env)));
        }
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    });
  }
});

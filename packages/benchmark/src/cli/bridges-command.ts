import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { READ_LIMITS, readGuardedJsonFile } from '../config/read-guarded-file.js';
import { BRIDGES, bridgePaths, bridgesDir, isBridgeName } from '../providers/bridges/bridge-catalog.js';
import { bridgeIsolation } from '../providers/bridges/bridge-isolation.js';
import { type BridgeLastRun, LAST_RUN_FILE } from '../providers/bridges/bridge-pool.js';
import { installBridge, readInstalledBridge } from '../providers/bridges/install-bridge.js';
import { renderMarkdownTable } from '../results/markdown-table.js';
import { log } from './logger.js';

const NAMES = Object.keys(BRIDGES).join(', ');

/**
 * `lme bridges install <name>` and `lme bridges list`: the open-source memory systems lme runs
 * itself (`--provider mem0`, `--provider mempalace`), each in a virtual environment of its own under
 * LME_BRIDGES_DIR (default ~/.cache/lme/bridges), with pinned packages and checked model files.
 */
export function bridgesCommand(): Command {
  const bridges = new Command('bridges').description(
    `install and list the open-source memory systems lme runs itself (${NAMES})`,
  );
  bridges
    .command('install')
    .description("create the bridge's virtual environment (pinned packages, pip) and fetch its model files")
    .argument('<names...>', `the bridges to install: ${NAMES}`)
    .option(
      '--model-dir <dir>',
      'a folder already holding the model files (as lme models --model-dir; default LME_MODEL_DIR)',
    )
    .option('--python <command>', 'the Python (3.10 or later) that creates the environment', 'python3')
    .action(async (names: string[], options: { modelDir?: string; python: string }) => {
      for (const name of names) {
        if (!isBridgeName(name))
          throw new Error(`lme bridges install: unknown bridge "${name}"; there are ${NAMES}.`);
      }
      const root = bridgesDir();
      const modelDir = options.modelDir ?? process.env['LME_MODEL_DIR'];
      for (const name of names) {
        if (!isBridgeName(name)) continue;
        const started = performance.now();
        await installBridge({
          name,
          root,
          python: options.python,
          ...(modelDir ? { modelDir } : {}),
          onMessage: (message) => log.info(`lme: ${name}: ${message}`),
        });
        const seconds = Math.round((performance.now() - started) / 1000);
        process.stdout.write(
          `installed the ${name} bridge (${BRIDGES[name].library}) in ${bridgePaths(root, name).folder} in ${seconds} s; run it with \`lme run --provider ${name}\`\n`,
        );
      }
    });
  bridges
    .command('list')
    .description('the bridges, their pinned library and whether they are installed here')
    .action(async () => {
      const root = bridgesDir();
      const rows: string[][] = [];
      for (const name of Object.keys(BRIDGES)) {
        if (!isBridgeName(name)) continue;
        let state: string;
        try {
          await readInstalledBridge(root, name);
          state = 'installed';
        } catch (error) {
          const present = await access(bridgePaths(root, name).folder).then(
            () => true,
            () => false,
          );
          state = present ? `needs a new install: ${(error as Error).message}` : 'not installed';
        }
        rows.push([
          name,
          BRIDGES[name].library,
          state,
          lastRunMemory(join(bridgePaths(root, name).folder, LAST_RUN_FILE)),
        ]);
      }
      process.stdout.write(
        `${renderMarkdownTable(['bridge', 'library', 'state', 'peak memory per process, last run'], rows)}\nfolder: ${root}\nnetwork: each bridge runs with ${bridgeIsolation().description}\n` +
          'memory: each process of `lme run -j N --provider <bridge>` holds its own store and model; N processes need about N times the figure above\n',
      );
    });
  return bridges;
}

/** `812 MB (2 processes, 2026-11-28)` from a bridge's last-run.json; `-` before any run. */
function lastRunMemory(path: string): string {
  try {
    const last = readGuardedJsonFile(path, { maxBytes: READ_LIMITS.small, links: 'refuse' }) as BridgeLastRun;
    const processes = `${last.processes} process${last.processes === 1 ? '' : 'es'}`;
    return `${Math.max(...last.peak_rss_mb)} MB (${processes}, ${last.finished_at.slice(0, 10)})`;
  } catch {
    return '-';
  }
}

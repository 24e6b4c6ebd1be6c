/**
 * The CI retrieval gate's figures cold and warm (issue 35): runs the gate command of `.ci/run`
 * twice, first with an empty embedding cache (every text embedded), then with the cache that run
 * filled (every text read back), and prints the gated metrics of both and the gate's verdict.
 * They must be equal, and so must the rankings (config.json `fingerprint.rankings`): an embedding
 * depends on its text alone, so the cache cannot move a figure.
 * Exits 1 when a figure differs, 3 when a gate fails.
 *
 *   pnpm tsx scripts/gate-cold-warm.ts [--data-dir ../shared/datasets/longmemeval]
 *       [--model-dir ~/.cache/lme-ci/models] [--config configs/gates/ci.json] [--keep <folder>]
 *       [--warm-cache <folder>]
 *
 * --warm-cache: the warm run reads (and fills) this cache instead of the cold run's, e.g. a cache
 * other runs filled. --keep: the runs and caches stay in this folder (default: a temporary one,
 * removed at the end).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: process.env['LME_DATA_DIR'] ?? '../shared/datasets/longmemeval' },
    'model-dir': {
      type: 'string',
      default: join(process.env['LME_MODEL_CACHE_DIR'] ?? join(homedir(), '.cache/lme-ci'), 'models'),
    },
    config: { type: 'string', default: 'configs/gates/ci.json' },
    keep: { type: 'string' },
    'warm-cache': { type: 'string' },
  },
});

const work = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'lme-gate-cold-warm-'));
mkdirSync(work, { recursive: true });
const gateFile = JSON.parse(readFileSync(resolve(root, values.config), 'utf8')) as {
  min?: Record<string, number>;
  metrics?: string[];
};
const metrics = [
  ...new Set([
    ...(gateFile.metrics ?? []),
    ...Object.keys(gateFile.min ?? {}).filter((key) => !key.includes(':')),
  ]),
];

function lme(args: string[]): { status: number; stdout: string } {
  const child = spawnSync('pnpm', ['-s', 'lme', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { status: child.status ?? 1, stdout: child.stdout };
}

type Phase = {
  name: string;
  figures: Record<string, number>;
  rankings: string;
  gate: string;
  gateStatus: number;
  seconds: number;
};

function phase(name: string, cacheDir: string): Phase {
  const started = performance.now();
  // The gate command of .ci/run, with this phase's cache.
  const run = lme([
    'run',
    '--dataset',
    's',
    '--data-dir',
    values['data-dir'],
    '--preset',
    'hybrid',
    '--limit',
    '40',
    '--seed',
    '7',
    '--cache-dir',
    cacheDir,
    '--model-dir',
    values['model-dir'],
    '--out',
    work,
    '--run-id',
    `ci-gate-${name}`,
    '--overwrite',
  ]);
  if (run.status !== 0) {
    console.error(`the ${name} run failed (exit ${run.status})`);
    process.exit(run.status);
  }
  const seconds = (performance.now() - started) / 1000;
  const gate = lme(['gate', join(work, `ci-gate-${name}`), '--config', values.config, '--only-failures']);
  const summary = JSON.parse(readFileSync(join(work, `ci-gate-${name}`, 'summary.json'), 'utf8')) as {
    metrics: { overall: { metrics: Record<string, number> } };
  };
  const figures = Object.fromEntries(
    metrics.map((metric) => [metric, summary.metrics.overall.metrics[metric]!]),
  );
  const verdict = gate.stdout.trim().split('\n').pop() ?? '';
  // The run's rankings hash (config.json fingerprint): equal rankings, not only equal means.
  const manifest = JSON.parse(readFileSync(join(work, `ci-gate-${name}`, 'config.json'), 'utf8')) as {
    fingerprint: { rankings: string };
  };
  return {
    name,
    figures,
    rankings: manifest.fingerprint.rankings,
    gate: verdict,
    gateStatus: gate.status,
    seconds,
  };
}

const coldCache = join(work, 'cache');
rmSync(coldCache, { recursive: true, force: true });
const cold = phase('cold', coldCache);
const warm = phase('warm', values['warm-cache'] ? resolve(values['warm-cache']) : coldCache);

console.log(`\n| metric | cold | warm |\n|---|---:|---:|`);
for (const metric of metrics) {
  console.log(`| ${metric} | ${cold.figures[metric]!.toFixed(4)} | ${warm.figures[metric]!.toFixed(4)} |`);
}
console.log(`| rankings (fingerprint) | ${cold.rankings.slice(0, 16)} | ${warm.rankings.slice(0, 16)} |`);
console.log(`| run time | ${cold.seconds.toFixed(0)} s | ${warm.seconds.toFixed(0)} s |`);
console.log(`| gate | ${cold.gate} | ${warm.gate} |`);
const differing = metrics.filter((metric) => cold.figures[metric] !== warm.figures[metric]);
if (cold.rankings !== warm.rankings) differing.push('rankings');
console.log(
  differing.length === 0
    ? '\ncold and warm figures are equal'
    : `\ncold and warm figures differ in ${differing.join(', ')}`,
);
if (!values.keep) rmSync(work, { recursive: true, force: true });
process.exitCode = differing.length > 0 ? 1 : cold.gateStatus || warm.gateStatus;

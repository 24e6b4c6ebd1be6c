/**
 * How fast `lme runs` lists a results folder of real runs (issue 49: all of at least 30 in under a
 * second). Builds the folder the tests use (testing/make-runs-folder.ts: four benchmarks, complete,
 * partial and failed runs, the committed baselines of earlier releases), adds the run folders of
 * `--previous <dir>` (folders an earlier lme wrote), then times the listing in-process (median of
 * `--repeat` reads, cold first) and the whole built CLI (`node packages/benchmark/bin/lme.js runs`,
 * Node's start included), and writes the leaderboard page with its size.
 *
 *   node --import tsx --conditions=source scripts/bench-runs-index.ts [--out /tmp/lme-runs] \
 *     [--previous /tmp/prev-release-runs] [--repeat 5] [--locomo <locomo10-conv26.json>]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { listRuns } from '../packages/benchmark/src/report/runs-index/list-runs.js';
import { makeRunsFolder } from '../packages/benchmark/src/testing/make-runs-folder.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/lme-runs-bench' },
    previous: { type: 'string', multiple: true, default: [] },
    repeat: { type: 'string', default: '5' },
    locomo: {
      type: 'string',
      default: join(import.meta.dirname, '../../shared/datasets/locomo/locomo10-conv26.json'),
    },
  },
});
const root = resolve(values.out);
rmSync(root, { recursive: true, force: true });
let started = performance.now();
const repo = join(import.meta.dirname, '..');
const others = [
  {
    id: 'beam-tier-1',
    dataset: join(repo, 'packages/benchmark/src/benchmarks/beam/fixtures/tier/1'),
    stopAfter: 2,
  },
  {
    id: 'beam-tier-2',
    dataset: join(repo, 'packages/benchmark/src/benchmarks/beam/fixtures/tier/2'),
    stopAfter: 1,
  },
  { id: 'plus', dataset: join(repo, 'datasets/fixtures/locomo-plus-mini/locomo_plus.json'), stopAfter: 3 },
  ...(existsSync(values.locomo)
    ? [{ id: 'locomo', dataset: values.locomo, errata: 'locomo10-conv26', stopAfter: 20 }]
    : []),
];
const results = await makeRunsFolder({ root, others, previous: values.previous.map((dir) => resolve(dir)) });
console.log(`built ${results} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const times: number[] = [];
const cpu: number[] = [];
let listed = listRuns(results);
for (let index = 0; index < Number(values.repeat); index++) {
  started = performance.now();
  const before = process.cpuUsage();
  listed = listRuns(results);
  const used = process.cpuUsage(before);
  times.push(performance.now() - started);
  cpu.push((used.user + used.system) / 1000);
}
const states = ['complete', 'partial', 'failed'].map(
  (state) => `${listed.runs.filter((run) => run.state === state).length} ${state}`,
);
const benchmarks = [...new Set(listed.runs.map((run) => run.benchmark))].join(', ');
const median = [...times].sort((left, right) => left - right)[Math.floor(times.length / 2)]!;
console.log(
  `runs: ${listed.runs.length} of ${listed.found} folders (${states.join(', ')}); benchmarks: ${benchmarks}`,
);
console.log(
  `listRuns in-process: median ${median.toFixed(0)} ms wall of ${times.length} (${times.map((time) => time.toFixed(0)).join(', ')} ms), CPU ${cpu.map((time) => time.toFixed(0)).join(', ')} ms; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
);
for (const warning of listed.warnings) console.log(`warning: ${warning}`);

const cli = join(import.meta.dirname, '../packages/benchmark/bin/lme.js');
if (existsSync(join(import.meta.dirname, '../packages/benchmark/dist/bundle/main.js'))) {
  for (const args of [
    ['--version'],
    ['runs', results],
    ['runs', results, '--html', join(root, 'leaderboard.html')],
  ]) {
    started = performance.now();
    const output = execFileSync('node', [cli, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `lme ${args.filter((arg) => arg !== results).join(' ')} (built CLI, Node start included): ${seconds} s, ${output.trim().split('\n').length} lines`,
    );
  }
  const page = join(root, 'leaderboard.html');
  console.log(
    `leaderboard: ${page} (${(statSync(page).size / 1024).toFixed(0)} KB for ${listed.runs.length} runs)`,
  );
} else {
  console.log('no build (pnpm build) : the CLI was not timed');
}

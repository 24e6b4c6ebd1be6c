/**
 * Wall time and peak memory of the S BM25 session run, end to end from the gzip file, as a user
 * runs it. Peak memory is the summed RSS of the whole process tree, sampled from /proc every
 * 10 ms (the official Python run peaks at about 1.9 GB summed and takes 9.1 s wall, median of 4,
 * on these 2-core machines; see ../shared/reference/official-bm25/README.md).
 *
 *   pnpm tsx scripts/bench-bm25.ts [--runs 4] [--granularity session|turn] [--dataset s]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rssOfTree } from './process-tree-rss.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '4' },
    granularity: { type: 'string', default: 'session' },
    dataset: { type: 'string', default: 's' },
    'data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? '../shared/datasets/longmemeval' },
  },
});

const root = resolve(import.meta.dirname, '..');

function measure(command: string, args: string[]): Promise<{ seconds: number; peakBytes: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    let peak = 0;
    const timer = setInterval(() => {
      if (child.pid) peak = Math.max(peak, rssOfTree(child.pid));
    }, 10);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) fail(new Error(`${command} exited with ${code}`));
      else done({ seconds: (performance.now() - started) / 1000, peakBytes: peak });
    });
  });
}

const out = mkdtempSync(join(tmpdir(), 'lme-bench-'));
const runArgs = (runId: string) => [
  'run',
  '--dataset',
  values.dataset,
  '--data-dir',
  values['data-dir'],
  '--retriever',
  'bm25',
  '--tokenizer',
  'official',
  '--granularity',
  values.granularity,
  '--out',
  out,
  '--run-id',
  runId,
];
const commands = {
  'pnpm lme': ['pnpm', ['-s', 'lme']],
  'node (tsx, no pnpm)': [
    process.execPath,
    ['--import', 'tsx', '--conditions=source', 'packages/benchmark/src/cli/main.ts'],
  ],
} as const;

console.log(`${values.dataset} ${values.granularity} BM25 run, ${values.runs} runs each`);
for (const [label, [command, prefix]] of Object.entries(commands)) {
  const results: { seconds: number; peakBytes: number }[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    results.push(await measure(command, [...prefix, ...runArgs(`${label.replace(/\W+/g, '-')}-${run}`)]));
  }
  const seconds = results.map((result) => result.seconds).sort((a, b) => a - b);
  const peaks = results.map((result) => result.peakBytes / 2 ** 20);
  const median =
    (seconds[Math.floor((seconds.length - 1) / 2)]! + seconds[Math.ceil((seconds.length - 1) / 2)]!) / 2;
  console.log(
    `${label.padEnd(20)} wall s median ${median.toFixed(2)} (min ${seconds[0]!.toFixed(2)}, max ${seconds.at(-1)!.toFixed(2)})` +
      ` · peak summed RSS MiB max ${Math.max(...peaks).toFixed(0)} (min ${Math.min(...peaks).toFixed(0)})`,
  );
}
rmSync(out, { recursive: true, force: true });

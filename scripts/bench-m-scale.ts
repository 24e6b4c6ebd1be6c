/**
 * Cost and figures of each preset on the M-scale file (scripts/make-m-scale.ts) and on S, in one
 * invocation so the ratio is visible: wall time, questions per second, peak summed RSS of the
 * process tree (sampled from /proc every 20 ms, as scripts/bench-bm25.ts does), retrieval latency
 * p50/p95 per question, and session recall_all@5 / recall_any@5 / ndcg_any@5 overall (and per
 * type with --per-type). Embedding presets are skipped, with a message, when the cache does not
 * hold every text they embed (counted with `lme run --dry-run`), so this never starts a long
 * embedding job by accident.
 *
 * --fake-embeddings measures what the pipeline itself costs at M scale with a warm cache, when no
 * warm cache exists yet: embedding presets then use `openai:fake-use-lite` served from loopback by
 * this script (512-d unit vectors derived from a hash of each text, so figures are meaningless
 * and only time and memory count), with a fresh cache folder that an unmeasured S run fills first
 * (every M-scale text is an S text), so the measured runs read every vector from the cache.
 *
 *   pnpm tsx scripts/bench-m-scale.ts [--presets bm25-official,bm25,hybrid,session-aware]
 *     [--m-scale datasets/longmemeval_m_scale.json.gz] [--s s] [--data-dir ../shared/datasets/longmemeval]
 *     [--cache-dir .lme-cache] [--per-type] [-- extra lme run flags, e.g. --granularity turn]
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rssOfTree } from './process-tree-rss.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    presets: { type: 'string', default: 'bm25-official,bm25,hybrid,session-aware' },
    'm-scale': { type: 'string', default: 'datasets/longmemeval_m_scale.json.gz' },
    s: { type: 'string', default: 's' },
    'data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? '../shared/datasets/longmemeval' },
    'cache-dir': { type: 'string', default: process.env.LME_CACHE_DIR ?? '.lme-cache' },
    'per-type': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'fake-embeddings': { type: 'boolean', default: false },
    /** With --fake-embeddings: a cache folder an earlier fake run filled (skips the warm-up run). */
    'fake-cache': { type: 'string' },
  },
});

const root = resolve(import.meta.dirname, '..');
const EMBEDDING_PRESETS = new Set(['hybrid', 'session-aware', 'contextual-hybrid', 'multi-route']);
const lme = [
  process.execPath,
  '--import',
  'tsx',
  '--conditions=source',
  'packages/benchmark/src/cli/main.ts',
];
const FIGURES = ['session.recall_all@5', 'session.recall_any@5', 'session.ndcg_any@5'] as const;

let measured = 0;
/**
 * Runs lme, sampling the summed RSS of its process tree; CPU seconds (user + system, children
 * included) come from /usr/bin/time when it exists, a figure the machine's load barely moves.
 */
function measure(
  args: string[],
): Promise<{ seconds: number; cpuSeconds: number; peakBytes: number; code: number | null }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const timeFile = join(out, `time-${measured++}.txt`);
    const timed = existsSync('/usr/bin/time');
    const command = timed
      ? ['/usr/bin/time', '-f', '%U %S', '-o', timeFile, ...lme, ...args]
      : [...lme, ...args];
    const child = spawn(command[0]!, command.slice(1), { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    let peak = 0;
    const timer = setInterval(() => {
      if (child.pid) peak = Math.max(peak, rssOfTree(child.pid));
    }, 20);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearInterval(timer);
      const cpu = timed
        ? readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number)
        : [];
      done({
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: cpu.length === 2 ? cpu[0]! + cpu[1]! : Number.NaN,
        peakBytes: peak,
        code,
      });
    });
  });
}

/** The start of every `lme run` this script makes. */
function runArgs(dataset: string, preset: string): string[] {
  return ['run', '--dataset', dataset, '--data-dir', values['data-dir'], '--preset', preset];
}

/** New texts the preset would embed, from the dry-run plan; undefined when the plan names none. */
function newTexts(dataset: string, preset: string): number | undefined {
  const plan = spawnSync(
    lme[0]!,
    [
      ...lme.slice(1),
      ...runArgs(dataset, preset),
      '--cache-dir',
      values['cache-dir'],
      ...positionals,
      '--dry-run',
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  const match = /texts to embed with \S+: \d+ distinct, \d+ cached, (\d+) new/.exec(
    plan.stdout + plan.stderr,
  );
  return match ? Number(match[1]) : undefined;
}

type Summary = {
  n: number;
  metrics: {
    overall: { metrics: Record<string, number> };
    by_type: Record<string, { n: number; metrics: Record<string, number> }>;
  };
};

const out = mkdtempSync(join(tmpdir(), 'lme-bench-m-'));
const fakeEnvironment: Record<string, string> = {};
const FAKE_DIMENSIONS = 512;
/** A loopback OpenAI embeddings endpoint: a unit vector per text from SHA-256 of the text. */
async function startFakeEmbeddings(): Promise<() => void> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      input: string[];
      encoding_format?: string;
    };
    const data = body.input.map((text, index) => {
      const vector = new Float32Array(FAKE_DIMENSIONS);
      let block = createHash('sha256').update(text).digest();
      let norm = 0;
      for (let at = 0; at < FAKE_DIMENSIONS; at++) {
        if (at % 32 === 0 && at > 0) block = createHash('sha256').update(block).digest();
        vector[at] = block[at % 32]! - 127.5;
        norm += vector[at]! * vector[at]!;
      }
      for (let at = 0; at < FAKE_DIMENSIONS; at++) vector[at]! /= Math.sqrt(norm);
      const embedding =
        body.encoding_format === 'base64' ? Buffer.from(vector.buffer).toString('base64') : [...vector];
      return { object: 'embedding', index, embedding };
    });
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        object: 'list',
        data,
        model: 'fake-use-lite',
        usage: { prompt_tokens: 0, total_tokens: 0 },
      }),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  fakeEnvironment.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fakeEnvironment.OPENAI_API_KEY = 'none';
  return () => server.close();
}
const stopFake = values['fake-embeddings'] ? await startFakeEmbeddings() : undefined;
const fakeCache = values['fake-cache'] ?? join(out, 'fake-cache');
const fakeCacheFilled = values['fake-cache'] !== undefined && readdirSync(fakeCache).length > 0;
const fakeFlags = [
  '--embedder',
  'openai:fake-use-lite',
  '--cache-dir',
  fakeCache,
  ...(stopFake ? ['--base-url', fakeEnvironment.OPENAI_BASE_URL!] : []),
];
const datasets = { S: values.s, 'M-scale': values['m-scale'] };
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const rows: string[] = [];
const perType: string[] = [];
console.log(
  `bench-m-scale: presets ${values.presets}; extra flags: ${positionals.join(' ') || 'none'}; results in ${out}`,
);
for (const preset of values.presets.split(',')) {
  for (const [label, dataset] of Object.entries(datasets)) {
    const fake = values['fake-embeddings'] && EMBEDDING_PRESETS.has(preset);
    if (fake && label === 'S' && !fakeCacheFilled) {
      // Unmeasured: fills the fresh cache with every S text, so the measured runs are warm.
      await measure([
        ...runArgs(dataset, preset),
        '--out',
        out,
        '--run-id',
        `${preset}-warm-up`,
        ...positionals,
        ...fakeFlags,
      ]);
    }
    if (EMBEDDING_PRESETS.has(preset) && !fake) {
      const missing = newTexts(dataset, preset);
      if (missing === undefined || missing > 0) {
        console.log(
          `skip ${preset} on ${label}: the cache ${values['cache-dir']} lacks ${missing ?? 'an unknown number of'} texts (warm it first)`,
        );
        continue;
      }
    }
    const runId = `${preset}-${label}`;
    const name = fake ? `${preset} (fake vectors)` : preset;
    const loadBefore = load();
    const result = await measure([
      ...runArgs(dataset, preset),
      ...(fake ? fakeFlags : ['--cache-dir', values['cache-dir']]),
      '--out',
      out,
      '--run-id',
      runId,
      ...positionals,
    ]);
    if (result.code !== 0 && result.code !== 2) {
      console.log(`${preset} on ${label}: lme exited with ${result.code}`);
      continue;
    }
    const summary = JSON.parse(readFileSync(join(out, runId, 'summary.json'), 'utf8')) as Summary;
    const overall = summary.metrics.overall.metrics;
    const figure = (metrics: Record<string, number>, metric: string) =>
      (metrics[metric] ?? Number.NaN).toFixed(4);
    const row = [
      name,
      label,
      String(summary.n),
      result.seconds.toFixed(1),
      result.cpuSeconds.toFixed(1),
      (summary.n / result.seconds).toFixed(2),
      (result.peakBytes / 2 ** 20).toFixed(0),
      (overall['latency.retrieve_ms.p50'] ?? Number.NaN).toFixed(1),
      (overall['latency.retrieve_ms.p95'] ?? Number.NaN).toFixed(1),
      ...FIGURES.map((metric) => figure(overall, metric)),
      `${loadBefore} / ${load()}`,
    ];
    rows.push(`| ${row.join(' | ')} |`);
    console.log(rows.at(-1));
    for (const [type, entry] of Object.entries(summary.metrics.by_type)) {
      perType.push(
        `| ${name} | ${label} | ${type} | ${entry.n} | ${FIGURES.map((metric) => figure(entry.metrics, metric)).join(' | ')} |`,
      );
    }
  }
}
console.log(
  '\n| preset | dataset | questions | wall s | CPU s | questions/s | peak RSS MiB | retrieve ms p50 | p95 | recall_all@5 | recall_any@5 | ndcg_any@5 | load avg before / after |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) console.log(row);
if (values['per-type']) {
  console.log('\n| preset | dataset | type | n | recall_all@5 | recall_any@5 | ndcg_any@5 |');
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: |');
  for (const row of perType) console.log(row);
}
stopFake?.();
if (!values.keep) rmSync(out, { recursive: true, force: true });

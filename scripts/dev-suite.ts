/**
 * The dev suite (issue 37): runs candidate settings on every benchmark's dev set (or, once the
 * choice is made, its test set) and prints one row per candidate and benchmark, then the choice
 * table of docs/defaults.md's rule: a candidate is admissible when none of its benchmark's guarded
 * metrics is lower than the base's beyond noise (paired test, p < 0.05), and of the admissible ones
 * the best mean of the benchmarks' primary metrics wins (a candidates file with `"mustBeatBase":
 * true` also asks the winner to beat the base beyond noise on one primary metric).
 *
 *   pnpm -s dev-suite --flags "--preset hybrid --dense-gap 0.2"     (one candidate against --preset hybrid)
 *   pnpm tsx --conditions=source scripts/dev-suite.ts --candidates configs/candidates/hybrid.json \
 *     [--split dev|test] [--only name,name] [--out /tmp/lme-dev-suite] [--model-dir dir] \
 *     [--s-data-dir ../shared/datasets/longmemeval] [--locomo ../shared/datasets/locomo/locomo10-conv26.json] \
 *     [--locomo10 <locomo10.json>] [--beam-dir <BEAM clone or download, holding chats/100K>] [--json]
 *     [--suite configs/suites/dev-m.json --s-m-dev <S dev at M scale, from scripts/make-m-scale.ts --split dev>]
 *
 * The benchmarks and their splits are in configs/suites/dev.json: LongMemEval S (--split dev/test,
 * official convention), LoCoMo (dev: the shared conversation conv-26; test: the other nine of
 * locomo10.json, given with --locomo10), BEAM 100K (dev: conversations 1-10; test: 11-20). A
 * benchmark whose files are absent is skipped and named. A run folder that already has a
 * summary.json is reused (delete it, or give another --out, to run it again), so the table of
 * earlier runs prints again in seconds; each candidates file has its own folder of runs under --out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    suite: { type: 'string', default: 'configs/suites/dev.json' },
    candidates: { type: 'string' },
    flags: { type: 'string' },
    base: { type: 'string' },
    split: { type: 'string', default: 'dev' },
    only: { type: 'string' },
    benchmarks: { type: 'string' },
    out: { type: 'string', default: '/tmp/lme-dev-suite' },
    'cache-dir': { type: 'string', default: '.lme-cache' },
    'model-dir': { type: 'string' },
    's-data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? '../shared/datasets/longmemeval' },
    's-m-dev': { type: 'string', default: process.env.LME_S_M_DEV ?? '' },
    locomo: { type: 'string', default: '../shared/datasets/locomo/locomo10-conv26.json' },
    locomo10: { type: 'string', default: process.env.LME_LOCOMO10 ?? '' },
    'beam-dir': { type: 'string', default: process.env.LME_BEAM_DIR ?? '' },
    json: { type: 'boolean', default: false },
  },
});

const root = resolve(import.meta.dirname, '..');

/** Bad input or a failed lme command: one line on stderr, exit 1 (lme has said why itself). */
function fail(message: string): never {
  process.stderr.write(`dev-suite: ${message}\n`);
  process.exit(1);
}

const fromRoot = (path: string) => (isAbsolute(path) ? path : resolve(root, path));
if (values.split !== 'dev' && values.split !== 'test') {
  fail(`--split must be dev or test, not "${values.split}".`);
}
const split = values.split as 'dev' | 'test';

type SuiteBenchmark = {
  id: string;
  name: string;
  /** No `test`: a dev set only (S dev at M scale), skipped with --split test. */
  args: { dev: string[]; test?: string[] };
  needs: string[];
  /** Absent: the benchmark guards (no guarded metric worse beyond noise) but is not in the mean. */
  primary?: string;
  guards: string[];
  show: string[];
};
type CandidateFile = {
  description?: string;
  base: string;
  /** Round four's rule: the winner must also beat the base beyond noise on one primary metric. */
  mustBeatBase?: boolean;
  candidates: Record<string, string[]>;
};
type Summary = {
  metrics: {
    overall: { n: number; metrics: Record<string, number> };
    by_type: Record<string, { n: number; metrics: Record<string, number> }>;
  };
};
type ComparisonRow = { question_type: string; metric: string; delta: number | null; p_value: number | null };

const suite = JSON.parse(readFileSync(fromRoot(values.suite), 'utf8')) as { benchmarks: SuiteBenchmark[] };
const splitWords = (text: string) => text.split(/\s+/).filter(Boolean);

/** The candidates: a file of named flag lists, or one --flags candidate against --base. */
function readCandidates(): CandidateFile {
  if (values.candidates) {
    return JSON.parse(readFileSync(fromRoot(values.candidates), 'utf8')) as CandidateFile;
  }
  if (!values.flags) fail('give --candidates <file> or --flags "<lme run flags>".');
  const candidateFlags = splitWords(values.flags);
  const baseFlags = splitWords(values.base ?? candidateFlags.slice(0, 2).join(' '));
  return { base: 'base', candidates: { base: baseFlags, candidate: candidateFlags } };
}

/** The files the placeholders name; the BEAM halves and LoCoMo's other nine are made in --out. */
function placeholders(): Record<string, string | undefined> {
  const beamTier = values['beam-dir'] ? join(fromRoot(values['beam-dir']), 'chats', '100K') : undefined;
  const beamHalf = (name: string, from: number) => {
    if (!beamTier || !existsSync(beamTier)) return undefined;
    const folder = join(resolve(values.out), name);
    mkdirSync(folder, { recursive: true });
    for (let index = from; index < from + 10; index++) {
      const link = join(folder, String(index));
      if (!existsSync(link)) symlinkSync(join(beamTier, String(index)), link);
    }
    return folder;
  };
  let locomoRest: string | undefined;
  if (values.locomo10 && existsSync(fromRoot(values.locomo10))) {
    locomoRest = join(resolve(values.out), 'locomo10-without-conv-26.json');
    if (!existsSync(locomoRest)) {
      const all = JSON.parse(readFileSync(fromRoot(values.locomo10), 'utf8')) as { sample_id: string }[];
      // wx: never through a link someone left at that name, never over an existing file.
      try {
        writeFileSync(
          locomoRest,
          JSON.stringify(all.filter((conversation) => conversation.sample_id !== 'conv-26')),
          { flag: 'wx' },
        );
      } catch (error) {
        fail(
          `${locomoRest} cannot be written (${(error as NodeJS.ErrnoException).code}): remove what is there.`,
        );
      }
    }
  }
  return {
    's-data-dir': fromRoot(values['s-data-dir']),
    's-m-dev': values['s-m-dev'] ? fromRoot(values['s-m-dev']) : undefined,
    locomo: fromRoot(values.locomo),
    'locomo-rest': locomoRest,
    'beam-dir': values['beam-dir'] ? fromRoot(values['beam-dir']) : undefined,
    'beam-dev': beamHalf('beam-dev', 1),
    'beam-test': beamHalf('beam-test', 11),
  };
}

/** Fills `{name}`; undefined when a placeholder has no value (its benchmark is skipped). */
function fill(text: string, names: Record<string, string | undefined>): string | undefined {
  let missing = false;
  const filled = text.replace(/\{([a-z0-9-]+)\}/g, (_, name: string) => {
    const value = names[name];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : filled;
}

function lme(args: string[], stdio: 'inherit' | 'pipe'): string {
  try {
    return execFileSync(
      'node',
      ['--import', 'tsx', '--conditions=source', join(root, 'packages/benchmark/src/cli/main.ts'), ...args],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        stdio: ['ignore', stdio === 'pipe' ? 'pipe' : 'ignore', 'inherit'],
      },
    );
  } catch (error) {
    const status = (error as { status?: number | null }).status;
    const runId = args.indexOf('--run-id');
    const command = runId === -1 ? `lme ${args[0]}` : `lme ${args[0]} ${args[runId + 1]}`;
    return fail(`${command} exited ${status ?? 'on a signal'}.`);
  }
}

/** A key of the suite's lists: `name` (overall) or `type:name` (one question type). */
function splitKey(key: string): { type: string; metric: string } {
  const colon = key.indexOf(':');
  return colon === -1
    ? { type: 'overall', metric: key }
    : { type: key.slice(0, colon), metric: key.slice(colon + 1) };
}

function metricOf(summary: Summary, key: string): number | undefined {
  const { type, metric } = splitKey(key);
  const group = type === 'overall' ? summary.metrics.overall : summary.metrics.by_type[type];
  return group?.metrics[metric];
}

const candidateFile = readCandidates();
// Each candidates file (or --flags) has its own folder of runs: two files may both name a `base`.
const group = values.candidates ? basename(values.candidates).replace(/\.json$/, '') : 'flags';
const out = resolve(values.out, group, split);
mkdirSync(out, { recursive: true });
const names = Object.keys(candidateFile.candidates);
if (!names.includes(candidateFile.base))
  fail(`${values.candidates}: the base "${candidateFile.base}" is not one of its candidates.`);
const wanted = values.only ? new Set([candidateFile.base, ...values.only.split(',')]) : undefined;
const chosenNames = names.filter((name) => !wanted || wanted.has(name));
const benchmarkFilter = values.benchmarks ? new Set(values.benchmarks.split(',')) : undefined;
const filled = placeholders();

type Cell = { summary: Summary; folder: string };
const cells = new Map<string, Cell>();
const skipped: string[] = [];
for (const benchmark of suite.benchmarks) {
  if (benchmarkFilter && !benchmarkFilter.has(benchmark.id)) continue;
  const splitArgs = benchmark.args[split];
  if (!splitArgs) {
    skipped.push(`${benchmark.name} ${split}: skipped (a dev set only)`);
    continue;
  }
  const args = splitArgs.map((arg) => fill(arg, filled));
  const missingFile = benchmark.needs
    .map((need) => fill(need, filled))
    .find((need) => !need || !existsSync(need));
  if (args.includes(undefined) || missingFile !== undefined) {
    skipped.push(
      `${benchmark.name} ${split}: skipped (${missingFile ?? 'its files were not given'}: see the options)`,
    );
    continue;
  }
  for (const name of chosenNames) {
    const runId = `${benchmark.id}-${name}`;
    const folder = join(out, runId);
    const summaryPath = join(folder, 'summary.json');
    if (!existsSync(summaryPath)) {
      process.stderr.write(`dev-suite: ${split} ${benchmark.name}: ${name}\n`);
      const extra = values['model-dir'] ? ['--model-dir', fromRoot(values['model-dir'])] : [];
      lme(
        [
          'run',
          ...(args as string[]),
          ...candidateFile.candidates[name]!,
          ...extra,
          '--cache-dir',
          fromRoot(values['cache-dir']),
          '--out',
          out,
          '--run-id',
          runId,
          '--label',
          name,
          '--quiet',
        ],
        'inherit',
      );
    }
    cells.set(`${benchmark.id}\u0000${name}`, {
      summary: JSON.parse(readFileSync(summaryPath, 'utf8')),
      folder,
    });
  }
}

/**
 * Where the candidate differs from the base beyond noise (p < 0.05, uncorrected), from one `lme
 * compare` of the two runs: the guarded metrics it is lower on, and the primary if it is higher.
 */
function beyondNoise(benchmark: SuiteBenchmark, name: string): { worse: string[]; better: string[] } {
  const base = cells.get(`${benchmark.id}\u0000${candidateFile.base}`);
  const candidate = cells.get(`${benchmark.id}\u0000${name}`);
  if (!base || !candidate || name === candidateFile.base) return { worse: [], better: [] };
  const keys = [...new Set([...benchmark.guards, ...(benchmark.primary ? [benchmark.primary] : [])])];
  const shared = keys.filter(
    (key) => metricOf(base.summary, key) !== undefined && metricOf(candidate.summary, key) !== undefined,
  );
  if (shared.length === 0) return { worse: [], better: [] };
  const metrics = [...new Set(shared.map((key) => splitKey(key).metric))];
  const rows = JSON.parse(
    lme(
      [
        'compare',
        base.folder,
        candidate.folder,
        '--metrics',
        metrics.join(','),
        '--format',
        'json',
        '--quiet',
      ],
      'pipe',
    ),
  ) as ComparisonRow[];
  const significant = (key: string, direction: -1 | 1) => {
    const { type, metric } = splitKey(key);
    const row = rows.find((entry) => entry.question_type === type && entry.metric === metric);
    return (
      row !== undefined && (row.delta ?? 0) * direction > 0 && row.p_value !== null && row.p_value < 0.05
    );
  };
  return {
    worse: shared.filter((key) => benchmark.guards.includes(key) && significant(key, -1)),
    better: shared.filter((key) => key === benchmark.primary && significant(key, 1)),
  };
}

const format = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(4));
const lines: string[] = [];
const report: Record<string, unknown>[] = [];
const choice: {
  name: string;
  means: (number | undefined)[];
  guarded: number[];
  worse: string[];
  better: string[];
}[] = [];
for (const name of chosenNames) choice.push({ name, means: [], guarded: [], worse: [], better: [] });
const ranBenchmarks = suite.benchmarks.filter((benchmark) =>
  chosenNames.some((name) => cells.has(`${benchmark.id}\u0000${name}`)),
);
for (const benchmark of ranBenchmarks) {
  lines.push('', `${benchmark.name} (${split}), base ${candidateFile.base}`, '');
  lines.push(`| candidate | n | ${benchmark.show.join(' | ')} | worse than the base beyond noise |`);
  lines.push(`| --- | ---: |${' ---: |'.repeat(benchmark.show.length)} --- |`);
  for (const entry of choice) {
    const cell = cells.get(`${benchmark.id}\u0000${entry.name}`);
    if (!cell) continue;
    const { worse, better } = beyondNoise(benchmark, entry.name);
    entry.worse.push(...worse.map((key) => `${benchmark.id} ${key}`));
    entry.better.push(...better.map((key) => `${benchmark.id} ${key}`));
    if (benchmark.primary) entry.means.push(metricOf(cell.summary, benchmark.primary));
    for (const key of benchmark.guards) {
      const value = metricOf(cell.summary, key);
      if (value !== undefined) entry.guarded.push(value);
    }
    const shown = benchmark.show.map((key) => metricOf(cell.summary, key));
    lines.push(
      `| ${entry.name} | ${cell.summary.metrics.overall.n} | ${shown.map(format).join(' | ')} | ${worse.join(', ') || 'no'} |`,
    );
    report.push({
      benchmark: benchmark.id,
      split,
      candidate: entry.name,
      n: cell.summary.metrics.overall.n,
      ...Object.fromEntries(benchmark.show.map((key, index) => [key, shown[index] ?? null])),
      worse_beyond_noise: worse,
      better_beyond_noise: better,
    });
  }
}

const ranked = ranBenchmarks.filter((benchmark) => benchmark.primary);
const primaries = ranked.map((benchmark) => `${benchmark.id} ${benchmark.primary}`);
const mustBeat = candidateFile.mustBeatBase === true;
lines.push(
  '',
  `The choice (${split}): admissible = no guarded metric lower than ${candidateFile.base}'s beyond noise` +
    (mustBeat ? ` and one primary higher beyond noise` : '') +
    '; then the best mean',
  '',
);
lines.push(
  `| candidate | ${primaries.join(' | ')} | mean | guarded mean |${mustBeat ? ' better beyond noise |' : ''} admissible |`,
);
lines.push(`| --- |${' ---: |'.repeat(primaries.length + 2)}${mustBeat ? ' --- |' : ''} --- |`);
const complete = choice.filter(
  (entry) => entry.means.length === ranked.length && entry.means.every((v) => v !== undefined),
);
const mean = (entry: (typeof choice)[number]) =>
  entry.means.reduce<number>((sum, v) => sum + (v ?? 0), 0) / entry.means.length;
const guardedMean = (entry: (typeof choice)[number]) =>
  entry.guarded.reduce((sum, v) => sum + v, 0) / Math.max(1, entry.guarded.length);
/** Why a candidate may not win (empty: admissible); the base is always admissible. */
const barred = (entry: (typeof choice)[number]): string[] => [
  ...entry.worse,
  ...(mustBeat && entry.name !== candidateFile.base && entry.better.length === 0
    ? ['no primary higher beyond noise']
    : []),
];
for (const entry of choice) {
  const reasons = barred(entry);
  const admissible = reasons.length === 0 ? 'yes' : `no (${reasons.join(', ')})`;
  const better = mustBeat ? ` ${entry.better.join(', ') || '-'} |` : '';
  lines.push(
    `| ${entry.name} | ${entry.means.map(format).join(' | ')} | ${format(complete.includes(entry) ? mean(entry) : undefined)} | ${format(guardedMean(entry))} |${better} ${admissible} |`,
  );
}
// The best mean of the primaries; a tie keeps the base (listed first), and between two other
// candidates goes to the better mean of all their guarded metrics (docs/defaults.md).
const best = complete
  .filter((entry) => barred(entry).length === 0)
  .sort((a, b) => {
    const byMean = mean(b) - mean(a);
    if (Math.abs(byMean) > 1e-12) return byMean;
    if (a.name === candidateFile.base || b.name === candidateFile.base)
      return a.name === candidateFile.base ? -1 : 1;
    return guardedMean(b) - guardedMean(a);
  })[0];
if (best) lines.push('', `chosen by the rule: ${best.name} (mean ${format(mean(best))})`);
for (const line of skipped) lines.push(line);

if (values.json)
  console.log(
    JSON.stringify(
      { split, base: candidateFile.base, rows: report, chosen: best?.name ?? null, skipped },
      null,
      2,
    ),
  );
else console.log(lines.join('\n'));

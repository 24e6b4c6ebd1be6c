/**
 * The generalization report (issue 19): each preset on LongMemEval S (the test part of the
 * dev/test split by default, convention official) and on the LoCoMo conversation (convention
 * evidence, both speakers' turns indexed), session and turn metrics side by side in one table, so
 * a change that helps one benchmark and hurts the other shows in one place.
 *
 *   pnpm tsx --conditions=source scripts/generalization.ts --presets bm25,hybrid,session-aware \
 *     [--s-split test|dev|all] [--s-data-dir ../shared/datasets/longmemeval] [--s-cache-dir dir] \
 *     [--locomo ../shared/datasets/locomo/locomo10-conv26.json] [--locomo-cache-dir dir] \
 *     [--out /tmp/generalization] [--skip-s-dense] [--flags "--fusion zscore"] [--label after]
 *     [--render-only]
 *
 * Every preset runs twice per benchmark: with its own granularity (session metrics) and with
 * `--granularity turn` (turn metrics), except presets that return turns themselves
 * (session-aware, multi-route, turn granularity). A run folder that already has summary.json is reused, so
 * `--render-only` prints the table of runs made earlier. `--skip-s-dense` runs only the presets
 * without embeddings on S (the others show "-").
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    presets: { type: 'string', default: 'bm25,hybrid,session-aware' },
    'tuning-split': { type: 'string' },
    's-split': { type: 'string', default: 'test' },
    's-data-dir': { type: 'string', default: '../shared/datasets/longmemeval' },
    's-cache-dir': { type: 'string', default: '.lme-cache' },
    locomo: { type: 'string', default: '../shared/datasets/locomo/locomo10-conv26.json' },
    'locomo-cache-dir': { type: 'string', default: '.lme-cache' },
    out: { type: 'string', default: '/tmp/lme-generalization' },
    flags: { type: 'string', default: '' },
    label: { type: 'string', default: 'run' },
    'skip-s-dense': { type: 'boolean', default: false },
    'render-only': { type: 'boolean', default: false },
  },
});

const root = resolve(import.meta.dirname, '..');
const presets = values.presets.split(',').filter(Boolean);
const extra = values.flags.split(/\s+/).filter(Boolean);
/** Presets that return turns themselves (their session run also gives the turn metrics). */
function returnsTurns(preset: string): boolean {
  const config = JSON.parse(readFileSync(join(root, 'configs/presets', `${preset}.json`), 'utf8')).config;
  return (
    config.retriever === 'session-aware' ||
    config.retriever === 'multi-route' ||
    config.granularity === 'turn'
  );
}

type Summary = {
  metrics: {
    overall: { n: number; metrics: Record<string, number> };
    by_type: Record<string, { metrics: Record<string, number> }>;
  };
};

function presetUsesEmbeddings(preset: string): boolean {
  const config = JSON.parse(readFileSync(join(root, 'configs/presets', `${preset}.json`), 'utf8')).config;
  // A session-aware, multi-route or multi-source preset searches --routes (unset: hybrid).
  const searchesDense = config.retriever !== 'bm25' && config.routes !== 'bm25';
  return searchesDense || extra.includes('dense') || extra.includes('hybrid');
}

/** Runs (or reuses) one lme run and returns its summary, or undefined when skipped. */
function run(runId: string, args: string[]): Summary | undefined {
  const folder = join(values.out, runId);
  const summary = join(folder, 'summary.json');
  if (!existsSync(summary) && !values['render-only']) {
    process.stderr.write(`generalization: ${runId}\n`);
    execFileSync(
      'node',
      [
        '--import',
        'tsx',
        '--conditions=source',
        join(root, 'packages/benchmark/src/cli/main.ts'),
        'run',
        ...args,
        ...extra,
        '--out',
        values.out,
        '--run-id',
        runId,
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return existsSync(summary) ? (JSON.parse(readFileSync(summary, 'utf8')) as Summary) : undefined;
}

type Row = { preset: string; cells: (number | undefined)[] };
const rows: Row[] = [];
for (const preset of presets) {
  const sArgs = [
    '--dataset',
    's',
    '--data-dir',
    values['s-data-dir'],
    '--preset',
    preset,
    '--cache-dir',
    values['s-cache-dir'],
  ];
  if (values['s-split'] !== 'all') sArgs.push('--split', values['s-split']);
  const lArgs = [
    '--dataset',
    values.locomo,
    '--convention',
    'evidence',
    '--index-roles',
    'all',
    '--preset',
    preset,
    '--cache-dir',
    values['locomo-cache-dir'],
  ];
  const skipS = values['skip-s-dense'] && presetUsesEmbeddings(preset);
  const id = (bench: string, level: string) => `${values.label}-${bench}-${preset}-${level}`;
  const sSession = skipS ? undefined : run(id('s', 'session'), sArgs);
  const sTurn = skipS
    ? undefined
    : returnsTurns(preset)
      ? sSession
      : run(id('s', 'turn'), [...sArgs, '--granularity', 'turn']);
  const lSession = run(id('locomo', 'session'), lArgs);
  const lTurn = returnsTurns(preset)
    ? lSession
    : run(id('locomo', 'turn'), [...lArgs, '--granularity', 'turn']);
  const overall = (summary: Summary | undefined, key: string) => summary?.metrics.overall.metrics[key];
  const ofType = (summary: Summary | undefined, type: string, key: string) =>
    summary?.metrics.by_type[type]?.metrics[key];
  rows.push({
    preset,
    cells: [
      overall(sSession, 'session.recall_all@5'),
      ofType(sSession, 'multi-session', 'session.recall_all@5'),
      overall(sSession, 'session.recall_any@5'),
      overall(sSession, 'session.ndcg_any@10'),
      overall(sTurn, 'turn.recall_any@5'),
      overall(lSession, 'session.recall_any@5'),
      overall(lSession, 'session.recall_any@10'),
      overall(lSession, 'session.ndcg_any@10'),
      overall(lSession, 'session.mrr'),
      overall(lTurn, 'turn.recall_any@5'),
      overall(lTurn, 'turn.mrr'),
    ],
  });
}

const headers = [
  'preset',
  `S ${values['s-split']} s.R_all@5`,
  'S multi-session s.R_all@5',
  'S s.R_any@5',
  'S s.nDCG@10',
  'S turn R_any@5',
  'LoCoMo s.R_any@5',
  'LoCoMo s.R_any@10',
  'LoCoMo s.nDCG@10',
  'LoCoMo s.MRR',
  'LoCoMo turn R_any@5',
  'LoCoMo turn MRR',
];
const format = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(4));
console.log(`| ${headers.join(' | ')} |`);
console.log(`| --- |${' ---: |'.repeat(headers.length - 1)}`);
for (const row of rows) console.log(`| ${row.preset} | ${row.cells.map(format).join(' | ')} |`);

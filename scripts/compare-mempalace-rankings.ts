/**
 * lme's `--retriever session-document` against MemPalace's own benchmark code on real LongMemEval S
 * questions: the same documents ranked the same way, compared rank by rank (not only the score).
 *
 *   LME_MEMPALACE_REPO=<clone of MemPalace/mempalace> pnpm tsx --conditions=source \
 *       scripts/compare-mempalace-rankings.ts [--ids a,b,c] [--mode raw|hybrid] [--json]
 *
 * MemPalace's side: scripts/mempalace-rankings.py, in the MemPalace bridge's virtual environment
 * (`lme bridges install mempalace`; LME_BRIDGES_DIR), runs `benchmarks/longmemeval_bench.py` as
 * of commit 9b7cfc99 (read from LME_MEMPALACE_REPO, bare or not) with the fp32 model files the
 * bridge install recorded. lme's side: `lme run` on the same questions with that model
 * (--model-dir: the folder holding it). Data: LME_DATA_DIR (default ../shared/datasets/longmemeval).
 * Prints per question the first rank where the two rankings differ (none: identical top 50) and
 * the largest difference of the vector distances (before any boost); exits 1 when a ranking differs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const MEMPALACE_COMMIT = '9b7cfc99';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    // The first S questions of each type, two for the most common types.
    ids: {
      type: 'string',
      default: 'e47becba,118b2229,0a995998,6d550036,8a2466db,gpt4_59149c77,71017276,6a1eabeb,7161e7e2',
    },
    mode: { type: 'string', default: 'raw' },
    json: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(`compare-mempalace-rankings: ${message}`);
  process.exit(1);
}

const repository =
  process.env['LME_MEMPALACE_REPO'] ?? fail('set LME_MEMPALACE_REPO to a clone of MemPalace/mempalace.');
const bridges = process.env['LME_BRIDGES_DIR'] ?? join(homedir(), '.cache/lme/bridges');
const installed = JSON.parse(readFileSync(join(bridges, 'mempalace/installed.json'), 'utf8')) as {
  models: Record<string, { model: string; tokenizer: string }>;
};
const files =
  installed.models['Xenova/all-MiniLM-L6-v2@fp32'] ?? fail('the MemPalace bridge records no fp32 MiniLM.');
const dataDir = process.env['LME_DATA_DIR'] ?? resolve(root, '../shared/datasets/longmemeval');
const data = join(dataDir, 'longmemeval_s_cleaned.json.gz');
const work = mkdtempSync(join(tmpdir(), 'lme-mempalace-compare-'));

const bench = join(work, 'longmemeval_bench.py');
const gitDir = spawnSync('git', ['-C', repository, 'rev-parse', '--git-dir'], {
  encoding: 'utf8',
}).stdout.trim();
writeFileSync(
  bench,
  execFileSync('git', [
    `--git-dir=${resolve(repository, gitDir)}`,
    'show',
    `${MEMPALACE_COMMIT}:benchmarks/longmemeval_bench.py`,
  ]),
);

type Ranked = { question_id: string; ranking: string[]; distances: number[] };
const python = spawnSync(
  join(bridges, 'mempalace/venv/bin/python'),
  [
    join(root, 'scripts/mempalace-rankings.py'),
    '--bench',
    bench,
    '--data',
    data,
    '--ids',
    values.ids,
    '--mode',
    values.mode,
    '--model',
    files.model,
    '--tokenizer',
    files.tokenizer,
  ],
  { encoding: 'utf8', maxBuffer: 1 << 26 },
);
if (python.status !== 0) fail(`MemPalace's side failed: ${python.stderr.trim().split('\n').pop()}`);
const theirs = python.stdout
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Ranked);

// lme reads the model folder as <dir>/<repository>/<revision>/onnx/model.onnx.
const modelDir = resolve(dirname(files.model), '../../../..');
const boost = values.mode === 'hybrid' ? ['--session-document-boost', 'keyword-overlap'] : [];
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--conditions=source',
    join(root, 'packages/benchmark/src/cli/main.ts'),
    'run',
    '--dataset',
    data,
    '--question-ids',
    values.ids,
    '--retriever',
    'session-document',
    ...boost,
    '--embedder',
    'hf:Xenova/all-MiniLM-L6-v2@fp32',
    '--model-dir',
    modelDir,
    '--convention',
    'evidence',
    '--out',
    work,
    '-q',
  ],
  { cwd: root, encoding: 'utf8' },
);
if (run.status !== 0) fail(`lme's side failed: ${run.stderr.trim().split('\n').pop()}`);
const folder = readdirSync(work).find((name) => !name.endsWith('.py'))!;
const ours = new Map(
  readFileSync(join(work, folder, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const sample = JSON.parse(line) as {
        question_id: string;
        hits: Array<{ session_id: string; routes: { dense: { score: number } } }>;
      };
      return [sample.question_id, sample.hits] as const;
    }),
);

const rows = theirs.map((their) => {
  const hits = ours.get(their.question_id) ?? [];
  const mine = hits.map((hit) => hit.session_id);
  const length = Math.max(mine.length, their.ranking.length);
  const differs = Array.from({ length }, (_, rank) => mine[rank] !== their.ranking[rank]).indexOf(true);
  const distanceGap = Math.max(
    ...their.distances.map((distance, rank) =>
      Math.abs(distance + (hits[rank]?.routes.dense.score ?? Number.NaN)),
    ),
  );
  return {
    question_id: their.question_id,
    documents: their.ranking.length,
    firstDifference: differs === -1 ? null : differs + 1,
    distanceGap,
  };
});
if (values.json) console.log(JSON.stringify(rows));
else {
  console.log(
    `MemPalace ${values.mode} mode at ${MEMPALACE_COMMIT} against lme, ${rows.length} S questions\n`,
  );
  console.log('| question | ranked | first rank that differs | largest distance difference |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows)
    console.log(
      `| ${row.question_id} | ${row.documents} | ${row.firstDifference ?? 'none'} | ${row.distanceGap.toExponential(1)} |`,
    );
}
rmSync(work, { recursive: true, force: true });
process.exit(rows.every((row) => row.firstDifference === null) ? 0 : 1);

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../config/run-sections.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { type ScratchPackage, scratchPackage } from '../testing/scratch-package.js';
import type { Benchmark } from './benchmark.js';
import { benchmarks, withBenchmark } from './benchmark-registry.js';

/**
 * A new benchmark is one folder and one registry line. This test writes a benchmark of a format
 * of its own (a FOLDER dataset: questions.tsv and sessions/<id>.tsv) as `benchmarks/scratch/` into
 * a copy of this package's src, adds its line (and the import) to the copy's
 * benchmark-registry.ts, changes nothing else, and runs the real CLI on that copy: retrieval is
 * graded (non-zero), the benchmark's published setting is the lowest config layer, and
 * `--convention official`, which it does not define, is refused (exit 1, one sentence). The same
 * folder module also runs in this process, registered through `withBenchmark` (the registry's own
 * `registerBenchmarks` checks).
 */

const SCRATCH_BENCHMARK = `import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { type Benchmark, RECORD_EVIDENCE_GOLD } from '../benchmark.js';
import type { LongMemEvalRecord } from '../longmemeval-record.js';

/** Scratch: a folder with questions.tsv (id, question, answer, evidence s<k>:<turn>) and sessions/<id>.tsv (date, then role<TAB>text lines). */
function loadScratch(path: string): { records: LongMemEvalRecord[]; sha256: string } {
  const hash = createHash('sha256');
  const sessionFiles = readdirSync(join(path, 'sessions')).sort();
  const sessions = sessionFiles.map((file) => {
    const text = readFileSync(join(path, 'sessions', file), 'utf8');
    hash.update(text);
    const [date, ...lines] = text.trim().split('\\n');
    const id = file.replace(/\\.tsv$/, '');
    return { id, date: date!, turns: lines.map((line) => { const [role, content] = line.split('\\t'); return { role: role!, content: content! }; }) };
  });
  const questions = readFileSync(join(path, 'questions.tsv'), 'utf8');
  hash.update(questions);
  const records = questions.trim().split('\\n').map((line, position) => {
    const [id, question, answer, evidence] = line.split('\\t');
    if (!id || !question || !answer || !evidence) throw new Error(\`\${path}/questions.tsv line \${position + 1}: expected four tab-separated fields\`);
    const gold = new Set(evidence.split(','));
    const haystack = sessions.map((session) => session.turns.map((turn, index) => ({ ...turn, has_answer: gold.has(\`\${session.id}:\${index + 1}\`) })));
    return {
      question_id: id,
      question_type: 'scratch-recall',
      question,
      answer,
      question_date: '2030/01/01 (Tue) 00:00',
      haystack_session_ids: sessions.map((session) => session.id),
      haystack_dates: sessions.map((session) => session.date),
      haystack_sessions: haystack,
      answer_session_ids: [...new Set([...gold].map((item) => item.split(':')[0]!))],
    } as LongMemEvalRecord;
  });
  return { records, sha256: hash.digest('hex') };
}

export const scratchBenchmark: Benchmark = {
  name: 'scratch',
  description: 'a scratch benchmark of a format of its own (a folder of TSV files)',
  formatHint: 'a scratch folder (questions.tsv and sessions/)',
  recognizesPath: (path) =>
    statSync(path, { throwIfNoEntry: false })?.isDirectory() === true && existsSync(join(path, 'questions.tsv')),
  recognizes: () => false,
  load: async (path) => ({ path, ...loadScratch(path), warnings: [] }),
  questionTypes: ['scratch-recall'],
  conventions: { evidence: RECORD_EVIDENCE_GOLD },
  defaults: { convention: 'evidence', judge: 'scratch-exact', readerPrompt: 'scratch-plain' },
  judges: {
    'scratch-exact': {
      description: 'the answer appears in the hypothesis',
      prompt: (record, hypothesis) => \`Does "\${hypothesis}" contain "\${record.answer}"? yes or no\`,
    },
  },
  readerPrompts: {
    'scratch-plain': {
      description: 'history, then the question',
      fill: ({ history, question }) => \`\${history}\\n\\nQuestion: \${question}\\nAnswer:\`,
    },
  },
};
`;

/** A dataset of the scratch format: three sessions, two questions whose evidence is one turn each. */
function writeScratchDataset(dir: string): void {
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  writeFileSync(
    join(dir, 'sessions', 's1.tsv'),
    '2030/01/01 (Tue) 10:00\nuser\tI adopted a grey cat called Pepper last spring.\nassistant\tPepper is a lovely name.\nuser\tShe likes sardines.\n',
  );
  writeFileSync(
    join(dir, 'sessions', 's2.tsv'),
    '2030/01/05 (Sat) 10:00\nuser\tMy sister moved to Lisbon for a job at an aquarium.\nassistant\tLisbon has a famous aquarium.\n',
  );
  writeFileSync(
    join(dir, 'sessions', 's3.tsv'),
    '2030/01/09 (Wed) 10:00\nuser\tI am training for a marathon in October.\nassistant\tGood luck with the training.\n',
  );
  writeFileSync(
    join(dir, 'questions.tsv'),
    'q1\tWhat is the name of my cat?\tPepper\ts1:1\nq2\tWhere did my sister move?\tLisbon\ts2:1\n',
  );
}

let scratch: ScratchPackage;
let data: string;

beforeAll(() => {
  const copy = scratchPackage({
    files: { 'benchmarks/scratch/scratch-benchmark.ts': SCRATCH_BENCHMARK },
    registry: {
      path: 'benchmarks/benchmark-registry.ts',
      replacements: [
        [
          "import type { ReaderPromptDefinition } from './reader-prompt.js';",
          "import type { ReaderPromptDefinition } from './reader-prompt.js';\nimport { scratchBenchmark } from './scratch/scratch-benchmark.js';",
        ],
        ['  locomo: locomoBenchmark,\n', '  locomo: locomoBenchmark,\n  scratch: scratchBenchmark,\n'],
      ],
    },
  });
  // The one registry line (and its import): nothing else outside the folder changes.
  expect(copy.addedLines).toBe(2);
  scratch = copy;
  data = mkdtempSync(join(tmpdir(), 'lme-scratch-data-'));
  writeScratchDataset(data);
});

afterAll(() => {
  scratch?.remove();
  if (data) rmSync(data, { recursive: true, force: true });
});

describe('a scratch benchmark: one folder and one registry line', () => {
  it('runs end to end through the CLI, graded non-zero, with its published setting as the lowest layer', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-scratch-out-'));
    const result = scratch.run([
      'run',
      '-d',
      data,
      '--preset',
      'bm25',
      '--granularity',
      'turn',
      '--out',
      out,
      '--run-id',
      'r',
    ]);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'r/summary.json'), 'utf8'));
    expect(summary.convention).toBe('evidence');
    expect(summary.metrics.overall.n).toBe(2);
    expect(summary.metrics.overall.metrics['turn.recall_any@1']).toBe(1);
    expect(summary.metrics.overall.metrics['session.recall_any@1']).toBe(1);
    const config = JSON.parse(readFileSync(join(out, 'r/config.json'), 'utf8')).config;
    expect(config).toMatchObject({
      convention: 'evidence',
      judge: 'scratch-exact',
      readerPrompt: 'scratch-plain',
    });
    expect(config.benchmarkDefaults).toEqual({
      benchmark: 'scratch',
      keys: ['convention', 'judge', 'readerPrompt'],
    });
    rmSync(out, { recursive: true, force: true });
  }, 180_000);

  it('refuses --convention official, which it does not define: exit 1, one sentence naming the flag and the benchmark', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-scratch-out-'));
    const result = scratch.run([
      'run',
      '-d',
      data,
      '--preset',
      'bm25',
      '--convention',
      'official',
      '--out',
      out,
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `--convention official: ${data} is a scratch dataset, which defines gold under evidence only; run it with --convention evidence.`,
    );
    rmSync(out, { recursive: true, force: true });
  }, 180_000);

  it('runs in process through runBenchmark when registered with withBenchmark', async () => {
    const folder = relative(
      import.meta.dirname,
      join(scratch.src, 'benchmarks/scratch/scratch-benchmark.ts'),
    );
    const { scratchBenchmark } = (await import(/* @vite-ignore */ `./${folder}`)) as {
      scratchBenchmark: Benchmark;
    };
    expect(Object.keys(benchmarks())).not.toContain('scratch');
    const out = mkdtempSync(join(tmpdir(), 'lme-scratch-out-'));
    const config = parseRunConfig({
      dataset: data,
      retriever: 'bm25',
      granularity: 'turn',
      convention: 'evidence',
      out,
      runId: 'r',
    });
    const result = await withBenchmark(scratchBenchmark, () => runBenchmark(config, { argv: [] }));
    expect(result.summary.metrics.overall.metrics['turn.recall_any@1']).toBe(1);
    await expect(
      withBenchmark(scratchBenchmark, () =>
        runBenchmark({ ...config, convention: 'official', runId: 'o' }, { argv: [] }),
      ),
    ).rejects.toThrow('--convention official: ');
    expect(Object.keys(benchmarks())).not.toContain('scratch');
    rmSync(out, { recursive: true, force: true });
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../analysis/compare-runs.js';
import { readRun } from '../analysis/read-run.js';
import { renderComparison } from '../analysis/render-comparison.js';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { resolveDatasetPath } from '../benchmarks/longmemeval/load-longmemeval.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { datasetTextSha256 } from '../errata/check-errata-dataset.js';
import type { LoadedErrata } from '../errata/load-errata.js';
import { buildReportModel } from '../report/html/report-model.js';
import type { Sample } from '../results/sample.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { renderErrataLine, summarizeErrata } from './outputs/summarize-errata.js';
import { runBenchmark } from './run-benchmark.js';

const SAMPLE = resolveDatasetPath('sample', join(REPO_ROOT, 'datasets'));
const provenance = { source: 'a test of lme', verified: 'written from the committed sample itself' };

/** An errata file over the committed sample: one corrected answer, one excluded question (and `extra` entries). */
async function sampleErrata(
  dir: string,
  sha256?: string,
  extra: (records: LongMemEvalRecord[]) => unknown[] = () => [],
): Promise<string> {
  const { records } = await loadAnyDataset(SAMPLE);
  const [first, second] = records;
  const path = join(dir, 'sample-errata.json');
  writeFileSync(
    path,
    JSON.stringify({
      name: 'sample-errata',
      version: 3,
      dataset: 'the committed sample',
      checksum: 'SHA-256 of the JSON text',
      files: [{ sha256: sha256 ?? (await datasetTextSha256(SAMPLE)), note: 'the sample' }],
      entries: [
        {
          question_id: first!.question_id,
          kind: 'gold-answer',
          field: 'answer',
          published: first!.answer,
          corrected: 'corrected',
          ...provenance,
        },
        {
          question_id: second!.question_id,
          kind: 'gold-answer',
          field: 'answer',
          published: second!.answer,
          corrected: 'exclude',
          ...provenance,
        },
        ...extra(records),
      ],
    }),
  );
  return path;
}

describe('--errata in a run', () => {
  it('leaves excluded questions out of every mean, marks touched samples and records the errata', async () => {
    const official = sampleConfig({}, 'lme-errata-');
    const errata = await sampleErrata(official.out);
    const plain = await runBenchmark({ ...official, runId: 'plain' }, { argv: [] });
    const corrected = await runBenchmark({ ...official, runId: 'errata', errata }, { argv: [] });

    expect(plain.summary.n).toBe(22);
    expect(corrected.summary.n).toBe(21);
    expect(corrected.summary.errata).toMatchObject({
      errata: 'sample-errata@3',
      applied: true,
      questions_touched: 2,
      excluded: 1,
      by_kind: { 'gold-answer': 2 },
    });
    const samples = samplesOf(corrected.dir);
    expect(samples).toHaveLength(22);
    expect(samples.filter((sample) => sample.errata).map((sample) => sample.errata?.excluded)).toEqual([
      false,
      true,
    ]);
    const config = JSON.parse(readFileSync(join(corrected.dir, 'config.json'), 'utf8'));
    expect(config.config.errata).toBe(errata);
    expect(config.errata).toMatchObject({ name: 'sample-errata', version: 3, entries: 2 });
    expect(corrected.table).toContain('errata sample-errata@3 (2 questions touched, 1 excluded)');
    expect(corrected.table).toContain('Errata sample-errata@3 applied (--errata): 2 questions touched');
    expect(readFileSync(join(corrected.dir, 'summary.csv'), 'utf8').split('\n')[1]).toMatch(
      /,sample-errata@3$/,
    );
    const samplesCsv = readFileSync(join(corrected.dir, 'samples.csv'), 'utf8');
    expect(samplesCsv).toContain(',excluded: gold-answer');
    expect(samplesCsv).toContain(',corrected: gold-answer');

    // lme compare names the errata of each run, and pairs only the questions both runs count.
    const comparison = compareRuns([readRun(plain.dir), readRun(corrected.dir)]);
    const rendered = renderComparison(comparison);
    expect(rendered).toContain(
      "- errata: base none (official labels), other sample-errata@3 (2 questions touched, 1 excluded); questions either excluded are in the other's means only",
    );
    expect(
      comparison.comparisons[0]!.categories.find((category) => category.category === 'overall'),
    ).toMatchObject({
      nBase: 18,
      nOther: 17,
      nPaired: 17,
    });

    // The HTML report names the errata of each run and marks the touched questions.
    const model = buildReportModel({ runs: [readRun(plain.dir), readRun(corrected.dir)] });
    expect(model.runs.map((run) => run.errata)).toEqual([
      'none (official labels)',
      'sample-errata@3 (2 questions touched, 1 excluded)',
    ]);
    const marked = model.questions.filter((question) => question.runs[1]?.errata !== undefined);
    expect(marked.map((question) => [question.runs[0]?.errata, question.runs[1]?.errata])).toEqual([
      [undefined, 'corrected: gold-answer (sample-errata@3)'],
      [undefined, 'excluded: gold-answer (sample-errata@3)'],
    ]);
  });

  it('refuses errata written for another dataset file in one sentence, and warns with --errata-any-checksum', async () => {
    const config = sampleConfig({}, 'lme-errata-');
    const errata = await sampleErrata(config.out, 'f'.repeat(64));
    await expect(runBenchmark({ ...config, errata }, { argv: [] })).rejects.toThrow(
      /^The errata sample-errata@3 \(--errata\) were written for another file than .*longmemeval_s_sample\.json\.gz \(its text's SHA-256 is [0-9a-f]{12}…, the errata name f{12}…\); pass --errata-any-checksum to apply the entries that fit anyway\.$/,
    );
    const notices: string[] = [];
    const result = await runBenchmark(
      { ...config, errata, errataAnyChecksum: true, runId: 'override' },
      { argv: [], hooks: { onNotice: (message) => notices.push(message) } },
    );
    expect(notices[0]).toMatch(/applying the entries that fit \(--errata-any-checksum\)\.$/);
    expect(result.summary.errata?.questions_touched).toBe(2);
  });

  // Issue 36, item 7: entries for questions not in the file were ignored silently.
  it('refuses errata that name a question the file does not have, before the run starts', async () => {
    const config = sampleConfig({}, 'lme-errata-');
    const errata = await sampleErrata(config.out, undefined, () => [
      {
        question_id: 'no-such-question',
        kind: 'gold-answer',
        field: 'answer',
        published: 'a',
        corrected: 'b',
        ...provenance,
      },
    ]);
    await expect(runBenchmark({ ...config, errata, runId: 'unknown-id' }, { argv: [] })).rejects.toThrow(
      /^The errata sample-errata@3 \(.*sample-errata\.json\) name 1 question that .*longmemeval_s_sample\.json\.gz does not have \(no-such-question\); an entry must name a question of the file it corrects\.$/,
    );
  });

  // Issue 36, item 7: errata that moved gold to sessions outside the haystack gave
  // recall_all@5 = 1.0 under the official convention, exit 0.
  it('refuses an evidence correction to sessions the haystack does not hold, naming the question', async () => {
    const config = sampleConfig({}, 'lme-errata-');
    let moved = '';
    const errata = await sampleErrata(config.out, undefined, (records) => {
      const third = records.find((record, index) => index > 1 && record.answer_session_ids.length > 0)!;
      moved = third.question_id;
      return [
        {
          question_id: third.question_id,
          kind: 'evidence',
          field: 'answer_session_ids',
          published: third.answer_session_ids,
          corrected: ['ghost_session'],
          ...provenance,
        },
      ];
    });
    const run = runBenchmark(
      { ...config, errata, runId: 'ghost-gold', convention: 'official' },
      { argv: [] },
    );
    await expect(run).rejects.toThrow(
      `Errata entry for question ${moved} moves its evidence to a session its haystack does not hold (ghost_session)`,
    );
  });
});

describe('the ceiling under the published labels', () => {
  const sample = (id: string, type = 'multi-session'): Sample =>
    ({ question_id: id, question_type: type, error: null, abstention: false }) as Sample;
  const errata = {
    name: 'x',
    version: 1,
    file_sha256: '0'.repeat(64),
    entries: [
      { question_id: 'q1', kind: 'gold-answer', field: 'answer', published: 'a', corrected: 'b' },
      {
        question_id: 'q2',
        kind: 'evidence',
        field: 'answer_session_ids',
        published: ['s'],
        corrected: ['t'],
      },
      { question_id: 'c5', kind: 'category', field: 'category', published: 5, corrected: 'exclude' },
      { question_id: 'c4', kind: 'gold-answer', field: 'answer', published: 'a', corrected: 'exclude' },
    ],
  } as unknown as LoadedErrata;

  it('is the share of questions whose published answer is not known to be wrong (evidence errata do not count)', () => {
    const summary = summarizeErrata(
      errata,
      false,
      ['q1', 'q2', 'q3', 'q4'].map((id) => sample(id)),
    );
    expect(summary.ceiling?.qa_accuracy).toEqual({ value: 0.75, wrong_labels: 1, n: 4 });
    expect(summary.questions_touched).toBe(2);
    expect(renderErrataLine(summary)).toBe(
      'Errata x@1 known for this dataset, not applied (official labels): 2 questions touched (gold-answer 1, evidence 1) here; ' +
        'QA accuracy ceiling under the published answers 75.0% (1 of 4 labels known wrong). Corrected figures: --errata x.',
    );
  });

  it('for LoCoMo also bounds the judge accuracy over categories 1-4, which leaves adversarial questions out', () => {
    const samples = [
      sample('c4', 'locomo-4-single-hop'),
      sample('ok', 'locomo-4-single-hop'),
      sample('c5', 'locomo-5-adversarial'),
    ];
    const summary = summarizeErrata(errata, false, samples);
    expect(summary.ceiling?.locomo_judge_accuracy).toEqual({ value: 0.5, wrong_labels: 1, n: 2 });
    expect(summary.ceiling?.qa_accuracy).toEqual({ value: 1 / 3, wrong_labels: 2, n: 3 });
  });
});

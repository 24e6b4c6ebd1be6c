import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRun } from '../../analysis/read-run.js';
import { makeSampleRun } from '../../testing/make-sample-run.js';
import { buildHtmlReport, resolveReportInputs } from './build-html-report.js';
import { metricBarSpecs } from './chart-specs.js';
import type { QuestionDetails } from './question-details.js';
import { renderHtmlReport } from './render-html-report.js';
import { buildReportModel, type ReportModel } from './report-model.js';

let root: string;
let official: string;
let words: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-html-build-'));
  official = await makeSampleRun(root, 'official', { tokenizer: 'official', explain: true });
  words = await makeSampleRun(root, 'words', { tokenizer: 'words' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The model JSON a report page carries. */
function embeddedModel(html: string): ReportModel {
  const match = /<script type="application\/json" id="lme-model">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match![1]!) as ReportModel;
}

describe('lme report --html', () => {
  it('writes one self-contained page: vega, vega-lite and vega-embed inlined, nothing fetched', async () => {
    const { html } = await buildHtmlReport({ inputs: resolveReportInputs([official, words]) });
    for (const name of ['vega', 'vega-lite', 'vega-embed'])
      expect(html).toContain(`<script data-bundle="${name}">`);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).not.toMatch(/<img[^>]+src="https?:/);
    const model = embeddedModel(html);
    expect(model.runs.map((run) => run.label)).toEqual(['official', 'words']);
    expect(model.runs[0]!.dataset_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(model.runs[0]!.colour).not.toBe(model.runs[1]!.colour);
    expect(model.comparison?.header).toContain('official (base)');
  });

  it('has a bar per question type and run in every headline chart, with n on each', async () => {
    const { model } = await buildHtmlReport({ inputs: resolveReportInputs([official, words]) });
    expect(model.metrics).toEqual(['session.recall_all@5', 'session.recall_any@5', 'session.ndcg_any@5']);
    expect(model.categories).toHaveLength(7);
    for (const { spec, metric } of metricBarSpecs(model)) {
      const values = (spec.data as { values: { n: number; run: string }[] }).values;
      expect(values, metric).toHaveLength(7 * 2);
      expect(values.find((row) => row.run === 'official')!.n).toBe(3);
      // Plain JSON: what Altair's Chart.from_dict reads.
      expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
      expect(spec.$schema).toBe('https://vega.github.io/schema/vega-lite/v6.json');
    }
    expect(model.curve.filter((row) => row.run === 'words').map((row) => row.k)).toEqual([
      1, 3, 5, 10, 30, 50, 1, 3, 5, 10, 30, 50,
    ]);
  });

  it("gives each question its text, evidence turns, session dates, and each gold session's rank per run", async () => {
    const { model } = await buildHtmlReport({ inputs: resolveReportInputs([official, words]) });
    expect(model.questions).toHaveLength(22);
    const question = model.questions.find((row) => row.id === '06878be2')!;
    expect(question.question).toBe(
      'Can you suggest some accessories that would complement my current photography setup?',
    );
    expect(question.evidence!.length).toBeGreaterThan(0);
    expect(question.runs[0]!.hits[0]!.date).toMatch(/^2023\/\d\d\/\d\d/);
    // explain.jsonl (official run): the full ranking and a cause; samples.jsonl (words): the saved hits.
    expect(question.runs[0]!.ranked).toBe('all');
    expect(question.runs[0]!.gold[0]!.cause).toMatch(/^lexical miss: bm25 rank \d+/);
    expect(question.runs[1]!.ranked).toBe(
      readRun(words).samples.find((sample) => sample.question_id === '06878be2')!.hits.length,
    );
    expect(question.runs[1]!.gold[0]!.rank).toBeGreaterThan(5);
  });

  it('says the question text is not available when the dataset file cannot be read', async () => {
    const moved = join(root, 'moved');
    cpSync(official, moved, { recursive: true });
    const config = JSON.parse(readFileSync(join(moved, 'config.json'), 'utf8'));
    config.dataset.path = join(root, 'gone.json.gz');
    writeFileSync(join(moved, 'config.json'), JSON.stringify(config));
    const { model } = await buildHtmlReport({ inputs: resolveReportInputs([moved]) });
    expect(model.notes.join(' ')).toMatch(
      /not available: the dataset file .*gone\.json\.gz is not readable here/,
    );
    expect(model.questions[0]!.question).toBeUndefined();
    expect(model.comparison).toBeUndefined();
  });

  it("reads an ablation folder's variants in ablation.json's order, labelled by variant", async () => {
    const ablation = join(root, 'ablation');
    mkdirSync(ablation);
    await makeSampleRun(ablation, 'tokenizer-words', { tokenizer: 'words' });
    await makeSampleRun(ablation, 'tokenizer-official', { tokenizer: 'official' });
    writeFileSync(
      join(ablation, 'ablation.json'),
      JSON.stringify({
        variants: [{ config: { runId: 'tokenizer-words' } }, { config: { runId: 'tokenizer-official' } }],
      }),
    );
    const inputs = resolveReportInputs([ablation]);
    expect(inputs.map((input) => input.label)).toEqual([
      'ablation/tokenizer-words',
      'ablation/tokenizer-official',
    ]);
    expect(() => resolveReportInputs([join(root, 'nothing')])).toThrow(/nothing does not exist/);
  });

  it('keeps text that looks like markup inside its script element', () => {
    const run = readRun(words);
    const details = new Map<string, QuestionDetails>([
      [
        run.samples[0]!.question_id,
        {
          question: '</script><script>alert(1)</script>',
          date: 'd',
          answer: 'a',
          sessionDates: {},
          evidence: [],
        },
      ],
    ]);
    const model = buildReportModel({ runs: [run], details });
    const html = renderHtmlReport(model, { bundles: [] });
    expect(html).not.toContain('<script>alert(1)');
    expect(embeddedModel(html).questions[0]!.question).toBe('</script><script>alert(1)</script>');
  });
});

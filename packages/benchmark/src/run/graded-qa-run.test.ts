import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  chatCompletionReply,
  type RecordedRequest,
  startOpenAiWireServer,
  type WireReply,
} from '@lme/search-core/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../analysis/compare-runs.js';
import { readRun } from '../analysis/read-run.js';
import { renderComparison } from '../analysis/render-comparison.js';
import type { Benchmark } from '../benchmarks/benchmark.js';
import { withBenchmark } from '../benchmarks/benchmark-registry.js';
import { longMemEvalBenchmark } from '../benchmarks/longmemeval/longmemeval-benchmark.js';
import { explainQuestion } from '../cli/explain-command.js';
import type { RunConfig } from '../config/run-config.js';
import { groupConfig } from '../config/run-sections.js';
import { buildHtmlReport } from '../report/html/build-html-report.js';
import { findChromium, openReport } from '../report/html/report-browser.js';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import { recordRankings } from '../testing/record-rankings.js';
import { RUBRIC_ITEM_MARKER, rubricItemVerdict, tinyRubricJudge } from '../testing/rubric-judge.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { withoutLatency } from '../testing/without-latency.js';
import { readManifest } from './outputs/run-manifest.js';
import { planRun } from './plan/plan-run.js';
import { runBenchmark } from './run-benchmark.js';
import { selectRecords } from './selection/question-source.js';

// The tiny rubric judge (testing/rubric-judge.ts) stands in for a benchmark's graded judge: a
// benchmark that brings it as `tiny-rubric` is registered around each run (`withBenchmark`), as a
// benchmark folder's judge would be by its registry line.
const tinyRubricBenchmark: Benchmark = {
  ...longMemEvalBenchmark,
  name: 'tiny-rubric-benchmark',
  description: 'a benchmark that only brings the tiny rubric judge (tests)',
  recognizes: () => false,
  recognizesPath: undefined,
  datasets: undefined,
  questionTypes: [],
  judges: { 'tiny-rubric': tinyRubricJudge },
  readerPrompts: {},
  defaults: { ...longMemEvalBenchmark.defaults, judge: 'tiny-rubric' },
};

type Record_ = { question_id: string; question: string; answer: unknown };
const records = JSON.parse(
  gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'))).toString('utf8'),
) as Record_[];
const goldOf = new Map(records.map((record) => [record.question.trim(), String(record.answer)]));
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
/** The question whose every rubric item the judge answers with unreadable text (a judge error). */
const UNREADABLE = 'How many Korean restaurants have I tried in my city?';

/**
 * The loopback reader answers with the whole gold answer (`strong`) or with the first word of each
 * of its sentences (`weak`); the judge scores each rubric item with `rubricItemVerdict` (1, 0.5 or
 * 0), except on UNREADABLE, where it replies with text the rubric cannot read.
 */
function server(answers: 'strong' | 'weak') {
  return startOpenAiWireServer({
    '/chat/completions': (request): WireReply => {
      const prompt = promptOf(request);
      if (prompt.includes(RUBRIC_ITEM_MARKER)) {
        return chatCompletionReply(
          prompt.includes(`Question: ${UNREADABLE}`) ? 'no idea' : rubricItemVerdict(prompt),
        );
      }
      const question = /Question: ?(.*)\n/.exec(prompt)?.[1]?.trim() ?? '';
      const gold = goldOf.get(question) ?? 'unknown';
      return chatCompletionReply(
        answers === 'strong'
          ? gold
          : gold
              .split(/(?<=\.)\s+/)
              .map((sentence) => sentence.split(' ')[0])
              .join(' '),
      );
    },
  });
}

async function gradedRun(runId: string, answers: 'strong' | 'weak', out?: string): Promise<string> {
  const wire = await server(answers);
  try {
    const parsed = sampleConfig({
      runId,
      readerModel: 'gpt-4o-mini',
      judgeModel: 'gpt-4o-mini',
      baseUrl: wire.baseUrl,
      cache: false,
      ...(out ? { out } : {}),
    });
    const config: RunConfig = { ...parsed, judge: 'tiny-rubric' };
    const { dir } = await withBenchmark(tinyRubricBenchmark, () =>
      runBenchmark(config, {
        argv: ['test'],
        environment: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: wire.baseUrl },
      }),
    );
    return dir;
  } finally {
    await wire.close();
  }
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('a graded judge end to end (partial credit from rubric items)', () => {
  let weak: string;
  let strong: string;
  beforeAll(async () => {
    weak = await gradedRun('weak', 'weak');
    strong = await gradedRun('strong', 'strong');
  }, 120_000);

  it('records each question’s score and rubric items in samples.jsonl, valid against the sample schema', () => {
    const samples = samplesOf(weak);
    const byId = new Map(samples.map((sample) => [sample.question_id, sample]));
    // "Business Administration": the weak answer "Business" holds the item's first word only.
    expect(byId.get('e47becba')!.judge).toEqual({
      score: 0.5,
      items: [{ name: 'Business Administration', score: 0.5, reason: 'partly there' }],
    });
    // Two sentences, two items: the first word of each is there, neither whole item.
    expect(byId.get('gpt4_59149c77')!.judge).toEqual({
      score: 0.5,
      items: [
        { name: '7 days.', score: 0.5, reason: 'partly there' },
        { name: '8 days (including the last day) is also acceptable.', score: 0.5, reason: 'partly there' },
      ],
    });
    // A one-word gold answered whole scores 1; the unreadable judge reply is a judge error.
    expect(byId.get('51a45a95')!.judge?.score).toBe(1);
    const error = byId.get('6aeb4375')!;
    expect(error.judge?.score).toBeNull();
    expect(error.judge?.error).toBe('The judge item 1 reply could not be read: "no idea".');
    expect(error.metrics).toMatchObject({ 'qa.score_strict': 0 });
    expect(error.metrics['qa.score']).toBeUndefined();
    for (const sample of samples) {
      expect(sample.judge?.label).toBeUndefined();
      expect(sample.metrics['qa.accuracy_strict']).toBeUndefined();
    }
    const ajv = new Ajv2020({ strict: true });
    const validate = ajv.compile(json(join(REPO_ROOT, 'docs/schemas/sample.schema.json')));
    for (const sample of samples) expect(validate(sample), JSON.stringify(validate.errors)).toBe(true);
  });

  it('means the scores in summary.json (qa.score_strict, qa.score) with bootstrap intervals, valid against its schema', () => {
    const summary = json(join(weak, 'summary.json')) as Summary;
    const samples = samplesOf(weak);
    const scores = samples.map((sample) => sample.judge!.score ?? null);
    const read = scores.filter((score): score is number => score !== null);
    const { overall } = summary.metrics;
    expect(overall.metrics['qa.score_strict']).toBeCloseTo(
      read.reduce((a, b) => a + b, 0) / samples.length,
      12,
    );
    expect(overall.metrics['qa.score']).toBeCloseTo(read.reduce((a, b) => a + b, 0) / read.length, 12);
    expect(overall.counts).toMatchObject({ 'qa.score_strict': 22, 'qa.score': 21 });
    expect(read.reduce((a, b) => a + b, 0)).toBe(12.5);
    // Partial credit: a mean no count of right answers over 22 questions could give.
    expect(Number.isInteger(overall.metrics['qa.score_strict']! * 22)).toBe(false);
    expect(overall.metrics['qa.score_task_avg']).toBeGreaterThan(0);
    expect(overall.metrics['qa.score_lenient_task_avg']).toBeGreaterThan(0);
    expect(overall.metrics['qa.accuracy_strict']).toBeUndefined();
    const interval = overall.ci95!['qa.score_strict']!;
    expect(interval.low).toBeLessThan(overall.metrics['qa.score_strict']!);
    expect(interval.high).toBeGreaterThan(overall.metrics['qa.score_strict']!);
    const ajv = new Ajv2020({ strict: true });
    const validate = ajv.compile(json(join(REPO_ROOT, 'docs/schemas/summary.schema.json')));
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
  });

  it('prints the graded table in report.md and the score and items in samples.csv', () => {
    const report = readFileSync(join(weak, 'report.md'), 'utf8');
    expect(report).toContain('Question answering, graded judge');
    // 12.5 points over 22 questions, and over the 21 without the judge error.
    expect(report).toMatch(/\| overall +\| 22 \| +0\.5682 \| +0\.4773-0\.6591 \| +1 \| +0\.5952 \|/);
    expect(report).toContain('95% CI: percentile bootstrap over the questions');
    const csv = readFileSync(join(weak, 'samples.csv'), 'utf8').split('\n');
    const header = csv[0]!.split(',');
    expect(header).toContain('qa.score_strict');
    expect(header.slice(header.indexOf('judge_label'), header.indexOf('judge_label') + 3)).toEqual([
      'judge_label',
      'judge_score',
      'judge_items',
    ]);
    const row = csv.find((line) => line.startsWith('e47becba,'))!;
    expect(row).toContain(
      ',0.5,"[{""name"":""Business Administration"",""score"":0.5,""reason"":""partly there""}]",',
    );
  });

  it('lists the score and each rubric item in lme explain', () => {
    const run = readRun(weak);
    const sample = run.samples.find((candidate) => candidate.question_id === 'gpt4_59149c77')!;
    const text = explainQuestion({ run, sample, k: 5, hits: 3 });
    expect(text).toContain('hypothesis (score 0.5): 7 8');
    expect(text).toContain('  rubric item 0.5/1: 7 days. (partly there)');
    expect(text).toContain(
      '  rubric item 0.5/1: 8 days (including the last day) is also acceptable. (partly there)',
    );
  });

  it('compares two graded runs with the paired bootstrap, not McNemar', () => {
    const result = compareRuns([readRun(weak), readRun(strong)]);
    const comparison = result.comparisons[0]!;
    expect(comparison.metrics).toContain('qa.score_strict');
    expect(comparison.binaryMetrics).not.toContain('qa.score_strict');
    const overall = comparison.categories.find((category) => category.category === 'overall')!;
    const score = overall.metrics.find((metric) => metric.metric === 'qa.score_strict')!;
    expect(score.test?.kind).toBe('bootstrap');
    expect(score.delta).toBeGreaterThan(0);
    expect(score.nPaired).toBe(22);
    expect(renderComparison(result)).toContain('qa.score_strict');
  });

  it('shows the score and every rubric item on the HTML report’s question page', async () => {
    const built = await buildHtmlReport({ inputs: [{ run: readRun(weak) }, { run: readRun(strong) }] });
    expect(built.model.metrics).toEqual(expect.arrayContaining(['qa.score_strict', 'qa.score']));
    const question = built.model.questions.find((row) => row.id === 'e47becba')!;
    expect(question.runs[0]).toMatchObject({
      judge_score: 0.5,
      judge_items: [{ name: 'Business Administration', score: 0.5, reason: 'partly there' }],
    });
    expect(question.runs[1]).toMatchObject({ judge_score: 1 });
    expect(question.runs[0]?.judge).toBeUndefined();
    expect(built.html).toContain('rubric item');
    expect(
      built.model.bars.some((bar) => bar.metric === 'qa.score_strict' && bar.category === 'overall'),
    ).toBe(true);
  });

  // Needs a system Chromium (as html-report.browser.test.ts); skipped without one.
  it.skipIf(findChromium() === undefined)(
    'draws the score and the rubric items table on the question page in a browser',
    async () => {
      const built = await buildHtmlReport({ inputs: [{ run: readRun(weak) }, { run: readRun(strong) }] });
      const path = join(weak, 'report.html');
      writeFileSync(path, built.html);
      const report = await openReport(path, { executablePath: findChromium()! });
      try {
        const { page } = report;
        await page.goto(`${page.url()}#q/gpt4_59149c77`);
        await page.waitForSelector('#question-page:not([hidden]) table.rubric');
        const text = (await page.textContent('#question-page')) ?? '';
        expect(text).toContain('judge score: 0.5');
        expect(text).toContain('judge score: 1');
        const rows = await page.$$eval('#question-page table.rubric', (tables) =>
          tables.map((table) =>
            [...table.querySelectorAll('tr')]
              .slice(1)
              .map((row) => [...row.cells].map((cell) => cell.textContent)),
          ),
        );
        expect(rows[0]).toEqual([
          ['7 days.', '0.5', 'partly there'],
          ['8 days (including the last day) is also acceptable.', '0.5', 'partly there'],
        ]);
        expect(rows[1]).toEqual([
          ['7 days.', '1', 'all there'],
          ['8 days (including the last day) is also acceptable.', '1', 'all there'],
        ]);
        expect(report.errors).toEqual([]);
        expect(report.requests).toEqual([]);
      } finally {
        await report.close();
      }
    },
    120_000,
  );
});

describe('the plan of a graded judge (--dry-run)', () => {
  it('counts one judge call per rubric item, at the rubric’s max_tokens', async () => {
    const parsed = sampleConfig({ readerModel: 'gpt-4o-mini', judgeModel: 'gpt-4o-mini' });
    const config: RunConfig = { ...parsed, judge: 'tiny-rubric' };
    const plan = await withBenchmark(tinyRubricBenchmark, async () =>
      planRun(groupConfig(config), await selectRecords(config)),
    );
    // 22 questions whose gold answers split into more items than that (one call each).
    const items = records.reduce(
      (sum, record) =>
        sum +
        String(record.answer)
          .split(/;|(?<=\.)\s+/)
          .filter(Boolean).length,
      0,
    );
    expect(plan.llm.find((role) => role.role === 'judge')).toMatchObject({
      calls: items,
      completionTokens: items * 100,
    });
    expect(items).toBeGreaterThan(22);
  });
});

describe('a results folder written before judge scores (label only)', () => {
  it('resumes, reports, writes CSV and compares, reading each label as score 1 or 0', async () => {
    const { makeSampleQaRun } = await import('../testing/make-qa-run.js');
    const correct = (question: string) => question.length % 2 === 0;
    const current = await makeSampleQaRun(sampleConfig().out, 'current', correct);
    const old = await makeSampleQaRun(sampleConfig().out, 'old', correct);
    // The old format: judge holds label (and error) only; drop the last two questions to resume them.
    const lines = readFileSync(join(old, 'samples.jsonl'), 'utf8').trim().split('\n');
    const oldLines = lines.map((line) => {
      const sample = JSON.parse(line) as Sample;
      if (sample.judge) delete sample.judge.score;
      return JSON.stringify(sample);
    });
    writeFileSync(join(old, 'samples.jsonl'), `${oldLines.slice(0, -2).join('\n')}\n`);
    recordRankings(old);
    const wire = await startOpenAiWireServer({
      '/chat/completions': (request): WireReply => {
        const body = request.body as { max_tokens?: number };
        const question = /Question: ?(.*)\n/.exec(promptOf(request))?.[1]?.trim() ?? '';
        return chatCompletionReply(
          body.max_tokens === 10 ? (correct(question) ? 'yes' : 'no') : `answer: ${question}`,
        );
      },
    });
    try {
      const { config } = readManifest(old);
      await runBenchmark(
        { ...config, baseUrl: wire.baseUrl },
        {
          argv: ['test'],
          environment: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: wire.baseUrl },
          resume: { dir: old },
        },
      );
    } finally {
      await wire.close();
    }
    const strip = (summary: Summary) => ({
      ...summary,
      run_id: '',
      metrics: withoutLatency(summary.metrics),
    });
    expect(strip(json(join(old, 'summary.json')))).toEqual(strip(json(join(current, 'summary.json'))));
    // The old lines still hold no score; CSV and report read their label as 1/0.
    const oldSamples = samplesOf(old);
    expect(oldSamples.filter((sample) => sample.judge?.score === undefined)).toHaveLength(20);
    const csv = (dir: string) =>
      readFileSync(join(dir, 'samples.csv'), 'utf8')
        .split('\n')
        .map((line) => line.split(',').slice(0, 1).concat(line.split(',').slice(-7, -4)).join(','));
    expect(csv(old)[0]).toBe('question_id,hypothesis,judge_label,judge_score');
    expect(csv(old)).toEqual(csv(current));
    expect(csv(old).filter((line) => /,(true,1|false,0)$/.test(line))).toHaveLength(22);
    const built = await buildHtmlReport({ inputs: [{ run: readRun(old) }, { run: readRun(current) }] });
    for (const question of built.model.questions)
      expect(question.runs[0]?.judge).toEqual(question.runs[1]?.judge);
    const overall = compareRuns([readRun(old), readRun(current)]).comparisons[0]!.categories.find(
      (category) => category.category === 'overall',
    )!;
    expect(overall.metrics.find((metric) => metric.metric === 'qa.accuracy_strict')?.test).toMatchObject({
      kind: 'mcnemar',
      b: 0,
      c: 0,
    });
  }, 120_000);
});

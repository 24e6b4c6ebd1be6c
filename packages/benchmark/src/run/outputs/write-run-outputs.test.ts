import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../config/run-sections.js';
import type { Sample } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { runBenchmark } from '../run-benchmark.js';
import type { RunManifest } from './run-manifest.js';
import { writeRunOutputs } from './write-run-outputs.js';

const fixture = resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json');

function memoryFolder() {
  const files = new Map<string, string>();
  return {
    files,
    dir: '/memory',
    writeJson: (name: string, value: unknown) => files.set(name, JSON.stringify(value)),
    writeText: (name: string, text: string) => files.set(name, text),
  };
}

function sample(questionId: string, type: string, metrics: Record<string, number>): Sample {
  return {
    question_id: questionId,
    position: 0,
    question_type: type,
    abstention: questionId.endsWith('_abs'),
    no_target: false,
    gold_sessions: [],
    hits: [],
    metrics,
    hypothesis: 'an answer',
    judge: { label: true },
    usage: {},
    latency_ms: { index: 0, retrieve: 0 },
    error: null,
  };
}

describe('writeRunOutputs on a LoCoMo run', () => {
  it('writes the LoCoMo retrieval block to summary.json and its table to report.md', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-locomo-outputs-'));
    const { dir, table } = await runBenchmark(
      parseRunConfig({
        dataset: fixture,
        convention: 'evidence',
        granularity: 'turn',
        preset: 'bm25',
        out,
        runId: 'mini',
      }),
      { argv: ['test'] },
    );
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    expect(summary.locomo?.retrieval.overall.n).toBe(7);
    expect(summary.locomo?.retrieval.by_category['5 adversarial']?.n).toBe(2);
    expect(summary.locomo?.retrieval.overall.metrics['locomo.recall_acc@5']).toBeTypeOf('number');
    expect(summary.locomo?.official_f1).toBeUndefined();
    expect(summary.qa).toBeUndefined();
    for (const text of [table, readFileSync(join(dir, 'report.md'), 'utf8')]) {
      expect(text).toContain('| category | n | recall_acc@5 printed | recall_acc@5 per-QA |');
      expect(text).toContain('| 5 adversarial | 2 |');
    }
  });

  it('adds the official F1 aggregation and the judge table, naming the judge behind each QA number', () => {
    const folder = memoryFolder();
    const config = parseRunConfig({
      dataset: fixture,
      convention: 'evidence',
      readerModel: 'reader-x',
      judge: 'locomo-llm',
      judgeModel: 'judge-y',
    });
    const manifest = { run_id: 'qa', config } as unknown as RunManifest;
    const samples = [
      sample('c_q1', 'locomo-4-single-hop', { 'qa.locomo_f1': 0.5, 'qa.accuracy_strict': 1 }),
      sample('c_q2', 'locomo-1-multi-hop', { 'qa.locomo_f1': 0.25, 'qa.accuracy_strict': 0 }),
      sample('c_q3_abs', 'locomo-5-adversarial', { 'qa.locomo_f1': 1 }),
    ];
    const { summary, table } = writeRunOutputs(folder, manifest, samples);
    expect(summary.qa).toEqual({
      judge: 'locomo-llm',
      judge_model: 'judge-y',
      answer_source: 'reader',
      reader_model: 'reader-x',
      reader_prompt: 'cot',
    });
    expect(summary.locomo?.official_f1?.overallAccuracy).toBe(0.583);
    expect(summary.locomo?.official_f1?.recall_metric).toBeNull();
    expect(summary.locomo?.official_f1?.printedLines).toEqual([
      'Total number of questions and corresponding accuracy in each category: ',
      '4 1 0.5 0.5',
      '1 1 0.25 0.25',
      'No questions found in category 2',
      'No questions found in category 3',
      '5 1 1 1.0',
      'Overall accuracy:  0.583',
    ]);
    expect(summary.locomo?.judge_accuracy).toMatchObject({
      judge: 'locomo-llm',
      judge_model: 'judge-y',
      overall: { n: 2, metrics: { 'qa.accuracy_strict': 0.5 } },
    });
    expect(JSON.parse(folder.files.get('summary.json')!).locomo.judge_accuracy.judge).toBe('locomo-llm');
    expect(table).toContain(
      'LLM judge accuracy, judge: locomo-llm (judge-y) (categories 1-4; adversarial excluded)',
    );
    expect(table).toContain('| 5 adversarial | 1 | excluded (adversarial, as Mem0) |');
    expect(folder.files.get('report.md')).toBe(table);
  });
});

import { describe, expect, it } from 'vitest';
import { locomoScoredQuestions, renderLocomoQaTables, renderLocomoRetrievalTable } from './locomo-report.js';

const sample = (question_type: string, metrics: Record<string, number>) => ({
  question_type,
  metrics,
  error: null,
});

describe('LoCoMo run tables', () => {
  const samples = [
    sample('locomo-3-open-domain', {
      'locomo.recall_acc@5': 1,
      'locomo.recall_acc_as_printed@5': 0,
      'qa.locomo_f1': 0,
      'qa.accuracy_strict': 1,
    }),
    sample('locomo-3-open-domain', {
      'locomo.recall_acc@5': 0.5,
      'locomo.recall_acc_as_printed@5': 0.5,
      'qa.locomo_f1': 0.667,
      'qa.accuracy_strict': 0,
    }),
    sample('locomo-5-adversarial', {
      'locomo.recall_acc@5': 1,
      'locomo.recall_acc_as_printed@5': 1,
      'qa.locomo_f1': 1,
    }),
    sample('multi-session', { 'locomo.recall_acc@5': 0 }),
  ];

  it('shows the printed and the per-question recall per category, adversarial in the overall', () => {
    expect(renderLocomoRetrievalTable(samples, ['recall_acc@5', 'session_recall_acc@5']).split('\n')).toEqual(
      [
        '| category | n | recall_acc@5 printed | recall_acc@5 per-QA |',
        '|---|---:|---:|---:|',
        '| 3 open-domain | 2 | 0.250 | 0.750 |',
        '| 5 adversarial | 1 | 1.000 | 1.000 |',
        '| overall | 3 | 0.500 | 0.833 |',
      ],
    );
  });

  it('reads a question without evidence back from its two recall values, and the official int scores', () => {
    const scored = locomoScoredQuestions(samples, 'locomo.recall_acc@5');
    expect(
      scored.map((question) => [question.category, question.score.isInt, question.evidence.length]),
    ).toEqual([
      [3, true, 0],
      [3, false, 1],
      [5, true, 1],
    ]);
  });

  it('heads each QA table with what produced it and leaves adversarial out of the judge table', () => {
    const tables = renderLocomoQaTables(samples, {
      judge: 'locomo-llm (gpt-4o-mini)',
      recallMetric: 'locomo.recall_acc@5',
    });
    expect(tables).toContain('| 3 open-domain | 2 | 0.334 |');
    expect(tables).toContain('| overall | 3 | 0.556 |');
    expect(tables).toContain(
      'LLM judge accuracy, judge: locomo-llm (gpt-4o-mini) (categories 1-4; adversarial excluded)',
    );
    expect(tables).toContain('| 5 adversarial | 1 | excluded (adversarial, as Mem0) |');
    expect(tables).toContain('| overall (1-4) | 2 | 0.500 |');
  });
});

import { describe, expect, it } from 'vitest';
import { evaluateQuestion } from '../../metrics/question-metrics.js';
import { buildCorpus } from '../build-corpus.js';
import { locomoRecords } from './load-locomo.js';
import { locomoEvidence } from './locomo-record.js';

const turn = (speaker: string, dia_id: string, text: string) => ({ speaker, dia_id, text });
const sample = {
  sample_id: 'conv-x',
  conversation: {
    speaker_a: 'Ann',
    speaker_b: 'Bo',
    session_1: [turn('Ann', 'D1:1', 'I adopted a cat.'), turn('Bo', 'D1:2', 'Nice!')],
    session_1_date_time: '1:56 pm on 8 May, 2023',
    session_2: [turn('Ann', 'D2:1', 'The cat is named Tom.'), turn('Bo', 'D2:2', 'Cute.')],
    session_2_date_time: '2:00 pm on 9 May, 2023',
  },
  qa: [
    { question: 'What pet and name?', answer: 'cat, Tom', evidence: ['D1:1', 'D2:1'], category: 1 },
    { question: 'Why?', answer: 'x', evidence: [], category: 3 },
  ],
};

describe('LoCoMo recall_acc of a ranking', () => {
  const { records } = locomoRecords([sample]);
  const evaluate = (recordIndex: number, ranking: number[], granularity: 'turn' | 'session' = 'turn') => {
    const record = records[recordIndex]!;
    const corpus = buildCorpus(record, { granularity, indexRoles: 'all' });
    return evaluateQuestion({ record, corpus, ranking, granularity, convention: 'evidence' }).metrics;
  };

  it('rebuilds the evidence dialog ids from the record', () => {
    expect(locomoEvidence(records[0]!)).toEqual(['D1:1', 'D2:1']);
  });

  it('grades the top k turns as dialog ids and the first k distinct sessions as session ids', () => {
    // Documents: 0 = D1:1, 1 = D1:2, 2 = D2:1, 3 = D2:2.
    const metrics = evaluate(0, [1, 0, 3, 2]);
    expect(metrics['locomo.recall_acc@1']).toBe(0);
    expect(metrics['locomo.recall_acc@3']).toBe(0.5);
    expect(metrics['locomo.recall_acc@5']).toBe(1);
    expect(metrics['locomo.session_recall_acc@1']).toBe(0.5);
    expect(metrics['locomo.session_recall_acc@3']).toBe(1);
  });

  it('gives a question without evidence 1, and 0 to what the official printed recall adds for it', () => {
    const metrics = evaluate(1, [0, 1, 2, 3]);
    expect(metrics['locomo.recall_acc@5']).toBe(1);
    expect(metrics['locomo.recall_acc_as_printed@5']).toBe(0);
  });

  it('has only session-level recall at session granularity', () => {
    const metrics = evaluate(0, [1, 0], 'session');
    expect(metrics['locomo.session_recall_acc@1']).toBe(0.5);
    expect(metrics['locomo.recall_acc@1']).toBeUndefined();
  });
});

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sessionInstant, spokenTurns } from './session-text.js';

describe('sessionInstant', () => {
  it('reads the benchmark date form and ISO dates as UTC, and nothing else', () => {
    expect(sessionInstant('2023/05/20 (Sat) 02:21')?.toISOString()).toBe('2023-05-20T02:21:00.000Z');
    expect(sessionInstant('2024-01-02T03:04:05Z')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(sessionInstant('last Tuesday')).toBeUndefined();
    expect(sessionInstant('')).toBeUndefined();
  });
});

describe('spokenTurns', () => {
  it('keeps the turns with text, in order, and leaves out empty and whitespace-only ones', () => {
    const turn = (content: string, turn_index: number) => ({ role: 'user' as const, content, turn_index });
    const session = {
      session_id: 's1',
      date: '2023/05/20 (Sat) 02:21',
      turns: [turn('Hi.', 0), turn('', 1), turn(' \n\t', 2), turn(' ok ', 3)],
    };
    expect(spokenTurns(session)).toEqual([turn('Hi.', 0), turn(' ok ', 3)]);
  });
});

describe('sessionInstant on the committed datasets', () => {
  it('reads every session date of the LongMemEval sample and of the LoCoMo fixture as loaded', async () => {
    for (const file of ['sample/longmemeval_s_sample.json.gz', 'fixtures/locomo-mini.json']) {
      const { records } = await loadAnyDataset(resolve(REPO_ROOT, 'datasets', file));
      const dates = records.flatMap((record) => record.haystack_dates);
      expect(dates.length).toBeGreaterThan(10);
      expect(dates.filter((date) => sessionInstant(date) === undefined)).toEqual([]);
    }
  });
});

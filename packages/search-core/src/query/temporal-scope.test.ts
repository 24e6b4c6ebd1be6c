import { afterEach, describe, expect, it } from 'vitest';
import { haystackTime } from '../retrievers/multi-source/conversation-context-source.js';
import { parseLongMemEvalDate, parseTemporalScope } from './temporal-scope.js';

// Node reads TZ again whenever it is assigned, so one process can read dates in several zones.
const originalZone = process.env.TZ;
afterEach(() => {
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

function inZone<T>(zone: string, read: () => T): T {
  process.env.TZ = zone;
  return read();
}

/** Spans around the 2023 daylight-saving changes of New York (12 March, 5 November). */
const QUESTIONS: [question: string, questionDate: string][] = [
  ['What did I do last weekend?', '2023/03/14 (Tue) 23:40'],
  ['What did I buy two weeks ago?', '2023/03/20 (Mon) 00:30'],
  ['Which places did I visit in the past month?', '2023/03/30 (Thu) 10:00'],
  ['What did I cook on March 12?', '2023/03/30 (Thu) 01:15'],
  ['Who did I meet last week?', '2023/11/06 (Mon) 00:30'],
  ['What did I read in October?', '2023/11/05 (Sun) 01:30'],
];

describe('LongMemEval dates', () => {
  it('reads a date with no zone as UTC, whatever the machine zone', () => {
    for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      const date = inZone(zone, () => parseLongMemEvalDate('2023/05/20 (Sat) 02:21'));
      expect(date?.toISOString(), zone).toBe('2023-05-20T02:21:00.000Z');
    }
  });

  it('gives the conversation-context source the same instant as the rest of the pipeline', () => {
    expect(haystackTime('2023/05/30 (Tue) 23:40')).toBe(
      parseLongMemEvalDate('2023/05/30 (Tue) 23:40')!.getTime(),
    );
    expect(haystackTime('not a date')).toBeNaN();
    expect(haystackTime(undefined)).toBeNaN();
  });

  it('resolves the span a question names to the same days in every machine zone', () => {
    const spans = (zone: string) =>
      inZone(zone, () =>
        QUESTIONS.map(([question, questionDate]) => {
          const scope = parseTemporalScope(question, parseLongMemEvalDate(questionDate)!)?.scope;
          return (
            scope && { start: scope.start.toISOString(), end: scope.end.toISOString(), rule: scope.rule }
          );
        }),
      );
    const utc = spans('UTC');
    expect(utc[0]).toEqual({
      start: '2023-03-11T00:00:00.000Z',
      end: '2023-03-12T23:59:59.999Z',
      rule: 'weekend',
    });
    expect(utc.every((span) => span !== undefined)).toBe(true);
    expect(spans('America/New_York')).toEqual(utc);
    expect(spans('Asia/Kolkata')).toEqual(utc);
  });
});

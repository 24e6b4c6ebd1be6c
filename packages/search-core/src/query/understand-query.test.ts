import { describe, expect, it } from 'vitest';
import { sampleRecord, sampleRecords } from '../testing/sample-records.js';
import { classifyQuery } from './query-class.js';
import { parseLongMemEvalDate } from './temporal-scope.js';
import { understandQuery } from './understand-query.js';

const records = sampleRecords();
const record = sampleRecord;
const understand = (id: string) =>
  understandQuery({ question: record(id).question, questionDate: record(id).question_date });

/** Local calendar day, the unit scopes are made of. */
const day = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
const span = (question: string, questionDate: string) => {
  const scope = understandQuery({ question, questionDate }).temporalScope;
  return (
    scope && { start: day(scope.start), end: day(scope.end), rule: scope.rule, expression: scope.expression }
  );
};

describe('parseLongMemEvalDate', () => {
  it('reads the haystack format as a local date and time', () => {
    const date = parseLongMemEvalDate('2023/05/30 (Tue) 23:40')!;
    expect([date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes()]).toEqual(
      [2023, 4, 30, 23, 40],
    );
    expect(day(parseLongMemEvalDate('2023/01/07')!)).toBe('2023-01-07');
    expect(parseLongMemEvalDate('May 30, 2023')).toBeUndefined();
  });

  it('fails naming a question date it cannot read', () => {
    expect(() => understandQuery({ question: 'Where?', questionDate: 'yesterday' })).toThrow(/"yesterday"/);
  });
});

describe('temporal scope on real sample questions', () => {
  it('resolves "in the past two weeks" to the fortnight before the question date (88432d0a_abs)', () => {
    const understanding = understand('88432d0a_abs');
    expect(record('88432d0a_abs').question_date).toBe('2023/05/30 (Tue) 23:40');
    expect(understanding.temporalScope).toMatchObject({ expression: 'past two weeks', rule: 'rolling' });
    expect(day(understanding.temporalScope!.start)).toBe('2023-05-16');
    expect(day(understanding.temporalScope!.end)).toBe('2023-05-30');
    expect(understanding.temporalScope!.end.getHours()).toBe(23);
  });

  it('finds no span in questions that ask for a duration or an order (71017276, gpt4_59149c77, gpt4_f49edff3, gpt4_70e84552_abs)', () => {
    for (const id of ['71017276', 'gpt4_59149c77', 'gpt4_f49edff3', 'gpt4_70e84552_abs'])
      expect(understand(id).temporalScope, id).toBeUndefined();
  });

  it('ignores a generic weekday ("on a Sunday", 7161e7e2)', () => {
    expect(understand('7161e7e2').temporalScope).toBeUndefined();
  });

  it('finds no span in the rest of the sample', () => {
    const scoped = records.filter(
      (candidate) =>
        understandQuery({ question: candidate.question, questionDate: candidate.question_date })
          .temporalScope,
    );
    expect(scoped.map((candidate) => candidate.question_id)).toEqual(['88432d0a_abs']);
  });
});

describe('temporal scope of common phrasings', () => {
  const may30 = '2023/05/30 (Tue) 23:40'; // question date of e47becba, 88432d0a_abs
  const april1 = record('71017276').question_date; // 2023/04/01 (Sat) 08:09
  const february1 = record('gpt4_59149c77').question_date; // 2023/02/01 (Wed) 10:20

  it('reads "last month" as the previous calendar month', () => {
    expect(span('What did I buy last month?', may30)).toMatchObject({
      start: '2023-04-01',
      end: '2023-04-30',
      rule: 'month',
    });
    expect(span('What did I buy last month?', february1)).toMatchObject({
      start: '2023-01-01',
      end: '2023-01-31',
    });
  });

  it('reads "N weeks ago" as the week around that day', () => {
    expect(span('Where did I go two weeks ago?', may30)).toMatchObject({
      start: '2023-05-13',
      end: '2023-05-19',
      rule: 'ago',
    });
    expect(span('Where did I go two weeks ago?', april1)).toMatchObject({
      start: '2023-03-15',
      end: '2023-03-21',
    });
  });

  it('reads a month name as its latest occurrence up to the question date', () => {
    expect(span('What did I cook in May?', may30)).toMatchObject({ start: '2023-05-01', end: '2023-05-31' });
    expect(span('What did I cook in May?', april1)).toMatchObject({ start: '2022-05-01', end: '2022-05-31' });
  });

  it('reads days: "last Saturday", "yesterday"', () => {
    expect(span('Which museum did I visit last Saturday?', may30)).toMatchObject({
      start: '2023-05-27',
      end: '2023-05-27',
      rule: 'day',
    });
    expect(span('Which museum did I visit last Saturday?', april1)).toMatchObject({ start: '2023-03-25' });
    expect(span('What did I eat yesterday?', april1)).toMatchObject({
      start: '2023-03-31',
      end: '2023-03-31',
    });
  });

  it('reads rolling windows up to the question date: "the past three months", "the last 10 days"', () => {
    expect(span('Which books did I finish in the past three months?', february1)).toMatchObject({
      start: '2022-11-01',
      end: '2023-02-01',
      rule: 'rolling',
    });
    expect(span('How often did I run in the last 10 days?', may30)).toMatchObject({
      start: '2023-05-20',
      end: '2023-05-30',
    });
  });

  it('reads calendar weeks, weekends, years and explicit ranges', () => {
    expect(span('What did I do last week?', may30)).toMatchObject({ start: '2023-05-22', end: '2023-05-28' });
    expect(span('Where did I hike last weekend?', may30)).toMatchObject({
      start: '2023-05-27',
      end: '2023-05-28',
    });
    expect(span('Where did I hike over the weekend?', may30)).toMatchObject({ start: '2023-05-27' });
    const sunday = '2023/05/28 (Sun) 20:00';
    expect(span('Where did I hike this weekend?', sunday)).toMatchObject({
      start: '2023-05-27',
      end: '2023-05-28',
    });
    expect(span('Which concerts did I attend in 2022?', may30)).toMatchObject({
      start: '2022-01-01',
      end: '2022-12-31',
      rule: 'year',
    });
    expect(span('What did I read between March 1 and April 5?', may30)).toMatchObject({
      start: '2023-03-01',
      end: '2023-04-05',
    });
  });

  it('finds none without a temporal expression', () => {
    expect(span('What degree did I graduate with?', may30)).toBeUndefined();
  });

  it('finds none in the present or the future: "now", "before today", "next week"', () => {
    expect(span("I'm trying to decide whether to buy a NAS device now or wait.", may30)).toBeUndefined();
    expect(span('What is the order of airlines I flew with before today?', may30)).toBeUndefined();
    expect(span("I'm planning my meal prep next week, any suggestions?", may30)).toBeUndefined();
    // "this weekend" asked on a weekday is the coming one (35a27287, 06f04340: plans, not memories).
    expect(
      span('Can you recommend some cultural events happening around me this weekend?', may30),
    ).toBeUndefined();
    expect(span('I am planning another theme park weekend; any suggestions?', may30)).toBeUndefined();
    expect(span('What did I cook last week, and what should I cook next week?', may30)).toMatchObject({
      start: '2023-05-22',
      end: '2023-05-28',
      expression: 'last week',
    });
  });
});

describe('entities', () => {
  it('takes quoted strings, capitalised names and nouns (gpt4_59149c77)', () => {
    const { entities, explain } = understand('gpt4_59149c77');
    expect(entities.slice(0, 4)).toEqual([
      'Ancient Civilizations',
      'Museum of Modern Art',
      'MoMA',
      'Metropolitan Museum of Art',
    ]);
    expect(explain.entitySources[0]).toEqual({ entity: 'Ancient Civilizations', source: 'quoted' });
    expect(entities).toContain('exhibit');
  });

  it('takes noun phrases and leaves out pronouns and temporal words (71017276, 88432d0a_abs)', () => {
    expect(understand('71017276').entities).toEqual(['aunt', 'crystal chandelier']);
    expect(understand('88432d0a_abs').entities).toEqual(['egg tarts']);
  });

  it('keeps proper names inside the sentence and drops question words (c4f10528, gpt4_70e84552_abs)', () => {
    expect(understand('c4f10528').entities).toEqual(
      expect.arrayContaining(['Bandung', 'Cihampelas Walk', 'Nasi Goreng', 'restaurant']),
    );
    expect(understand('c4f10528').entities).not.toContain('I');
    expect(understand('gpt4_70e84552_abs').entities).toEqual(['Peter', 'task', 'fence', 'cows']);
  });
});

describe('query class', () => {
  it('classes the real sample questions by their cues', () => {
    const classes = Object.fromEntries(
      ['e47becba', '0a995998', '8a2466db', '06878be2', 'gpt4_f49edff3', 'gpt4_70e84552_abs', '830ce83f'].map(
        (id) => [id, understand(id).queryClass],
      ),
    );
    expect(classes).toEqual({
      e47becba: 'factual',
      '0a995998': 'analytical',
      '8a2466db': 'exploratory',
      '06878be2': 'exploratory',
      gpt4_f49edff3: 'analytical',
      gpt4_70e84552_abs: 'analytical',
      '830ce83f': 'factual',
    });
    expect(understand('0a995998').explain.classCue).toBe('How many');
  });

  it('classes procedural and analytical phrasings', () => {
    expect(classifyQuery('How to descale the espresso machine I bought?')).toEqual({
      queryClass: 'procedural',
      cue: 'How to',
    });
    expect(classifyQuery('What were the steps you gave me for repotting?').queryClass).toBe('procedural');
    expect(classifyQuery('Why did I cancel the gym membership?').queryClass).toBe('analytical');
    expect(classifyQuery('Compare the two laptops I was considering.').queryClass).toBe('analytical');
    expect(classifyQuery('Any ideas for my sister’s birthday?').queryClass).toBe('exploratory');
    expect(classifyQuery('Where do I work?')).toEqual({ queryClass: 'factual' });
  });
});

import { describe, expect, it } from 'vitest';
import { COMMITTED_SAMPLE } from '../benchmarks/longmemeval/load-longmemeval.js';
import { parseRunConfig } from '../config/run-sections.js';
import { sampleConfig } from '../testing/sample-run.js';
import { runBenchmark } from './run-benchmark.js';
import { openQuestionSource } from './selection/question-source.js';
import { limitCount } from './selection/select-questions.js';

async function idsOf(config: Parameters<typeof openQuestionSource>[1]): Promise<string[]> {
  const source = await openQuestionSource(COMMITTED_SAMPLE, config);
  const ids: string[] = [];
  for await (const { record } of source.items) ids.push(record.question_id);
  return ids;
}

describe('--limit as a share', () => {
  it('takes that share of the questions, rounded, at least one, stratified and seeded', async () => {
    expect([limitCount(0.5, 22), limitCount(0.01, 22), limitCount(5, 22)]).toEqual([11, 1, 5]);
    const half = await idsOf(parseRunConfig({ dataset: COMMITTED_SAMPLE, limit: 0.5, seed: 7 }));
    expect(half).toHaveLength(11);
    expect(await idsOf(parseRunConfig({ dataset: COMMITTED_SAMPLE, limit: 11, seed: 7 }))).toEqual(half);
    expect(await idsOf(parseRunConfig({ dataset: COMMITTED_SAMPLE, limit: 0.5, seed: 8 }))).not.toEqual(half);
  });

  it('refuses 0, a negative and a fraction above 1 in one sentence naming --limit', () => {
    for (const limit of [0, -1, 1.5])
      expect(() => parseRunConfig({ limit })).toThrow(
        `Invalid configuration: limit: a count (a whole number from 1) or a share between 0 and 1 such as 0.1 (--limit).`,
      );
  });
});

describe('the selected questions', () => {
  it('are counted before the first question, streamed or read whole, so progress has a total', async () => {
    for (const config of [
      parseRunConfig({ dataset: COMMITTED_SAMPLE }),
      parseRunConfig({ dataset: COMMITTED_SAMPLE, limit: 0.5 }),
    ]) {
      const streamed = await openQuestionSource(COMMITTED_SAMPLE, config, undefined, 0);
      expect(streamed.total).toBe(config.limit ? 11 : 22);
    }
  });

  it('are announced before the first question ends, and each question end says done of total', async () => {
    const events: string[] = [];
    await runBenchmark(sampleConfig({ questionTypes: ['multi-session', 'knowledge-update'] }), {
      argv: [],
      hooks: {
        onQuestionsSelected: ({ questions, finished }) =>
          events.push(`selected ${questions} (${finished} done)`),
        onQuestionEnd: ({ done, total }) => events.push(`${done}/${total}`),
      },
    });
    // 3 + 3 of the two types, and an abstention question of each.
    expect(events).toEqual(['selected 8 (0 done)', ...[1, 2, 3, 4, 5, 6, 7, 8].map((done) => `${done}/8`)]);
  });
});

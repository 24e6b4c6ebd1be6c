import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../config/presets.js';
import type { RunConfigInput } from '../config/run-config.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { withoutLatency } from '../testing/without-latency.js';
import { RunInterruptedError, runBenchmark } from './run-benchmark.js';

const config = (overrides: RunConfigInput = {}) => sampleConfig(overrides, 'lme-run-');

describe('runBenchmark resume', () => {
  it('continues after an interruption and a torn last line, ending with the uninterrupted summary', async () => {
    const whole = await runBenchmark(config({ runId: 'whole' }), { argv: [] });

    const controller = new AbortController();
    const interrupted = config({ runId: 'interrupted' });
    let seen = 0;
    await expect(
      runBenchmark(interrupted, {
        argv: [],
        signal: controller.signal,
        hooks: { onQuestionEnd: () => ++seen === 7 && controller.abort() },
      }),
    ).rejects.toBeInstanceOf(RunInterruptedError);
    const dir = join(interrupted.out, 'interrupted');
    expect(samplesOf(dir)).toHaveLength(7);
    appendFileSync(join(dir, 'samples.jsonl'), '{"question_id":"half-writ');

    let resumedFrom = -1;
    let torn = false;
    const resumed = await runBenchmark(interrupted, {
      argv: [],
      resume: { dir },
      hooks: {
        onResume: ({ finished, droppedTornLine }) => {
          resumedFrom = finished;
          torn = droppedTornLine;
        },
      },
    });
    expect(resumedFrom).toBe(7);
    expect(torn).toBe(true);
    expect(samplesOf(dir)).toHaveLength(22);
    expect(withoutLatency(resumed.summary.metrics)).toEqual(withoutLatency(whole.summary.metrics));
  });

  it('changes nothing in a run that is already complete', async () => {
    const complete = config({ runId: 'complete', limit: 4 });
    await runBenchmark(complete, { argv: [] });
    const dir = join(complete.out, 'complete');
    const files = () =>
      Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
    const before = files();
    const notices: string[] = [];
    const again = await runBenchmark(complete, {
      argv: ['run', '--resume', dir],
      resume: { dir },
      hooks: { onNotice: (message) => notices.push(message) },
    });
    expect(files()).toEqual(before);
    expect(again.summary.n).toBe(4);
    expect(again.table).toBe(readFileSync(join(dir, 'report.md'), 'utf8'));
    expect(notices).toContain(
      `${dir} is already complete (4 questions, none to retry): nothing to do, its files are left as they are.`,
    );
  });

  it('refuses to resume with a config that changes results, naming the keys', async () => {
    const first = config({ runId: 'a' });
    await runBenchmark(first, { argv: [] });
    const changed = { ...first, tokenizer: 'official' as const, granularity: 'turn' as const };
    await expect(runBenchmark(changed, { argv: [], resume: { dir: join(first.out, 'a') } })).rejects.toThrow(
      /config differs in granularity \(stored "session", now "turn"\), tokenizer \(stored "words", now "official"\)/,
    );
  });
});

describe('question selection', () => {
  it('splits the questions into disjoint shards covering all of them, the same way every time', async () => {
    const ids = async (shard: string) =>
      samplesOf((await runBenchmark(config({ shard }), { argv: [] })).dir).map(
        (sample) => sample.question_id,
      );
    const shards = await Promise.all(['1/3', '2/3', '3/3'].map(ids));
    const all = shards.flat();
    expect(new Set(all).size).toBe(22);
    expect(all).toHaveLength(22);
    expect(await ids('2/3')).toEqual(shards[1]);
  });

  it('takes a stratified, seeded --limit subset', async () => {
    const pick = async (seed: number) =>
      samplesOf((await runBenchmark(config({ limit: 12, seed }), { argv: [] })).dir);
    const first = await pick(1);
    expect(first).toHaveLength(12);
    // 22 questions over 6 types (3-4 each): 12 leaves every type 2.
    const perType = new Map<string, number>();
    for (const sample of first)
      perType.set(sample.question_type, (perType.get(sample.question_type) ?? 0) + 1);
    expect([...perType.values()]).toEqual([2, 2, 2, 2, 2, 2]);
    expect((await pick(1)).map((sample) => sample.question_id)).toEqual(
      first.map((sample) => sample.question_id),
    );
    expect((await pick(2)).map((sample) => sample.question_id)).not.toEqual(
      first.map((sample) => sample.question_id),
    );
  });

  it('filters by question type and id', async () => {
    const byType = samplesOf(
      (await runBenchmark(config({ questionTypes: ['multi-session'] }), { argv: [] })).dir,
    );
    expect(byType.map((sample) => sample.question_type)).toEqual(Array(4).fill('multi-session'));
    const id = byType[0]!.question_id;
    const byId = samplesOf((await runBenchmark(config({ questionIds: [id] }), { argv: [] })).dir);
    expect(byId.map((sample) => sample.question_id)).toEqual([id]);
  });
});

describe('the config runBenchmark takes', () => {
  it('is the input as asked for (a preset, an old key), resolved as the parsed config of the same input is', async () => {
    // The old `sessionAware` key over BM25 routes: mapped onto `retriever` as it resolves, no embedding.
    const keys: RunConfigInput = {
      ...loadPreset('bm25').config,
      retriever: undefined,
      sessionAware: true,
      routes: 'bm25',
    };
    const parsed = config({ ...keys, runId: 'parsed' });
    const asked: RunConfigInput = {
      ...keys,
      dataset: 'sample',
      dataDir: parsed.dataDir,
      out: parsed.out,
      runId: 'asked',
    };
    const fromParsed = await runBenchmark(parsed, { argv: [] });
    const fromInput = await runBenchmark(asked, { argv: [] });
    const recorded = (dir: string) => {
      const { config: stored } = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      return { ...stored, runId: undefined };
    };
    expect(recorded(fromInput.dir)).toEqual(recorded(fromParsed.dir));
    expect(recorded(fromInput.dir)).toMatchObject({ retriever: 'session-aware', judge: 'longmemeval' });
    expect(withoutLatency(fromInput.summary.metrics)).toEqual(withoutLatency(fromParsed.summary.metrics));
  });
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  chatCompletionReply,
  type OpenAiWireServer,
  type RecordedRequest,
  startOpenAiWireServer,
} from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunConfigInput } from '../config/run-config.js';
import {
  type AnsweringMemoryServer,
  type ScriptedQuestion,
  scriptByPosition,
  scriptedKind,
  startAnsweringMemoryServer,
} from '../testing/answering-memory-server.js';
import { containmentJudgeHandler } from '../testing/containment-judge.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { withoutLatency } from '../testing/without-latency.js';
import { runBenchmark } from './run-benchmark.js';

const ENVIRONMENT = { OPENAI_API_KEY: 'sk-test-provider-answers-1234' };
const QUESTIONS = JSON.parse(
  gunzipSync(readFileSync(join(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sample.json.gz'))).toString(
    'utf8',
  ),
) as ScriptedQuestion[];

const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';

describe('--answers provider: the memory system’s own answers judged', () => {
  let memory: AnsweringMemoryServer | undefined;
  let judge: OpenAiWireServer | undefined;
  afterEach(async () => {
    await memory?.close();
    await judge?.close();
    memory = undefined;
    judge = undefined;
  });

  const start = async (handler = containmentJudgeHandler) => {
    memory = await startAnsweringMemoryServer({ script: scriptByPosition(QUESTIONS) });
    judge = await startOpenAiWireServer({ '/chat/completions': handler });
    return (overrides: RunConfigInput = {}) =>
      sampleConfig(
        {
          provider: 'http',
          providerUrl: memory!.url,
          answers: 'provider',
          judgeBaseUrl: judge!.baseUrl,
          cache: false,
          ...overrides,
        },
        'lme-provider-answers-',
      );
  };

  it('judges each answer with the official rubric, counts an empty or missing answer as a failed question, and records the source', async () => {
    const config = (await start())();
    const result = await runBenchmark(config, { argv: [], environment: ENVIRONMENT });
    const samples = samplesOf(result.dir);

    // Expected independently of lme: the script's right answers hold the gold text, its wrong ones
    // do not, and the loopback judge says yes exactly when the response contains the gold text.
    const expected = QUESTIONS.map((question, position) => ({
      id: question.question_id,
      kind: scriptedKind(position),
    }));
    for (const { id, kind } of expected) {
      const sample = samples.find((candidate) => candidate.question_id === id)!;
      expect(sample.answer_source).toBe('provider');
      if (kind === 'right' || kind === 'wrong') {
        expect(sample.error).toBeNull();
        expect(sample.judge?.label).toBe(kind === 'right');
      } else {
        expect(sample.error).toMatch(
          kind === 'empty' ? /returned an empty answer to question/ : /returned no answer to question/,
        );
        expect(sample.judge).toBeNull();
      }
    }
    const right = expected.filter(({ kind }) => kind === 'right').length;
    const judged = expected.filter(({ kind }) => kind === 'right' || kind === 'wrong').length;
    expect([right, judged, result.summary.errors]).toEqual([12, 17, 5]);
    expect(result.summary.metrics.overall.metrics['qa.accuracy_strict']).toBeCloseTo(right / judged, 10);
    expect(result.summary.metrics.overall.counts['qa.accuracy_strict']).toBe(judged);
    expect(result.summary.qa).toMatchObject({ answer_source: 'provider', judge_model: 'gpt-4o-2024-08-06' });
    expect(result.summary.qa?.reader_model).toBeUndefined();

    // One judge call per answered question, with the abstention rubric for the _abs ones, and the
    // provider's own usage and latency kept beside lme's judge.
    expect(judge!.requests).toHaveLength(judged);
    for (const request of judge!.requests) {
      const prompt = promptOf(request);
      const id = QUESTIONS.find((question) =>
        prompt.includes(`Question: ${question.question}\n`),
      )!.question_id;
      expect(prompt.includes('Does the model correctly identify the question as unanswerable?')).toBe(
        id.endsWith('_abs'),
      );
    }
    expect(samples.every((sample) => sample.usage.provider?.prompt_tokens !== undefined)).toBe(true);
    expect(samples.every((sample) => (sample.latency_ms.answer ?? 0) >= 40)).toBe(true);
    expect(samples.some((sample) => sample.answer_context !== undefined)).toBe(true);
    expect(result.spend.usd).toBeGreaterThan(0);
    expect(Object.keys(result.spend.byRole)).toEqual(['judge']);
    expect(result.spend.provider?.calls).toBe(22);
    expect(result.providerAnswers).toMatchObject({ answered: 17, unanswered: 5 });
    const stored = JSON.parse(readFileSync(join(result.dir, 'config.json'), 'utf8'));
    expect(stored.config.answers).toBe('provider');
    expect(stored.provider_stats.answers).toMatchObject({ answered: 17, unanswered: 5 });
  }, 60_000);

  it('asks the judge k times, reports the agreement and a Wilson interval, and replays every vote from the cache', async () => {
    // A judge that contradicts itself on every third call it receives for one prompt.
    const seen = new Map<string, number>();
    const config = (
      await start((request, index) => {
        const prompt = promptOf(request);
        const call = seen.get(prompt) ?? 0;
        seen.set(prompt, call + 1);
        const verdict = containmentJudgeHandler(request, index) as ReturnType<typeof chatCompletionReply>;
        if (call % 3 !== 2) return verdict;
        const said = (verdict.json as { choices: { message: { content: string } }[] }).choices[0]!.message
          .content;
        return chatCompletionReply(said === 'yes' ? 'no' : 'yes');
      })
    )({
      judgeSamples: 3,
      judgeTemperature: 0.7,
      cache: true,
      cacheDir: mkdtempSync(join(tmpdir(), 'lme-votes-')),
    });
    const first = await runBenchmark(config, { argv: [], environment: ENVIRONMENT });
    expect(judge!.requests).toHaveLength(17 * 3);
    const overall = first.summary.metrics.overall;
    expect(overall.metrics['qa.judge_agreement']).toBeCloseTo(2 / 3, 10);
    expect(overall.metrics['qa.accuracy_strict']).toBeCloseTo(12 / 17, 10);
    // Wilson 95% for 12 of 17, computed by hand: centre (p + z²/2n)/(1 + z²/n), half-width
    // z/(1 + z²/n)·sqrt(p(1-p)/n + z²/4n²).
    expect(overall.ci95?.['qa.accuracy_strict']?.low).toBeCloseTo(0.46867, 4);
    expect(overall.ci95?.['qa.accuracy_strict']?.high).toBeCloseTo(0.8672, 4);
    expect(first.table).toContain('judge agreement');
    expect(first.table).toContain('each the majority of 3 judge calls at temperature 0.7');
    expect(samplesOf(first.dir).find((sample) => sample.judge)?.judge?.votes).toBeDefined();
    for (const request of judge!.requests)
      expect((request.body as { temperature: number }).temperature).toBe(0.7);

    const again = await runBenchmark({ ...config, runId: 'again' }, { argv: [], environment: ENVIRONMENT });
    expect(judge!.requests).toHaveLength(17 * 3);
    expect(withoutLatency(again.summary.metrics)).toEqual(withoutLatency(first.summary.metrics));
  }, 60_000);

  it('refuses --answers provider with a provider that cannot answer, or with --reader-model, in one sentence', async () => {
    const config = (await start())();
    await expect(
      runBenchmark({ ...config, provider: 'pipeline' }, { argv: [], environment: ENVIRONMENT }),
    ).rejects.toThrow(
      "--answers provider judges the memory system's own answers, but --provider pipeline gives none (only --provider http returns an answer); to judge lme's reader instead, drop --answers provider and set --reader-model.",
    );
    await expect(
      runBenchmark({ ...config, readerModel: 'gpt-4o-mini' }, { argv: [], environment: ENVIRONMENT }),
    ).rejects.toThrow(
      /^--answers provider judges the provider's own answers with no lme reader: drop --reader-model/,
    );
    expect(memory!.searches()).toBe(0);
    expect(judge!.requests).toHaveLength(0);
  });
});

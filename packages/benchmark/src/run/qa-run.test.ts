import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  chatCompletionReply,
  type OpenAiWireServer,
  type RecordedRequest,
  startOpenAiWireServer,
  type WireReply,
} from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../results/sample.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { withoutLatency } from '../testing/without-latency.js';

const API_KEY = 'sk-lme-test-SECRET-4242';

// The CLI runs in a child process started asynchronously: the loopback server lives in this
// process and must keep answering while the child runs.

// The distinctive sentence of each official judge template (evaluate_qa.py), held here so the
// server can check that each question type got its own rubric.
const RUBRIC_BY_TYPE: Record<string, string> = {
  'single-session-user':
    'If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: ',
  'single-session-assistant':
    'If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: ',
  'multi-session':
    'If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: ',
  'temporal-reasoning': 'In addition, do not penalize off-by-one errors for the number of days.',
  'knowledge-update':
    'If the response contains some previous information along with an updated answer, the response should be considered as correct as long as the updated answer is the required answer.',
  'single-session-preference': 'I will give you a question, a rubric for desired personalized response',
  abstention: 'Does the model correctly identify the question as unanswerable? Answer yes or no only.',
};

type Message = { role: string; content: string };
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: Message[] }).messages[0]?.content ?? '';
const isJudge = (request: RecordedRequest) => (request.body as { max_tokens?: number }).max_tokens === 10;

const completion = chatCompletionReply;

/**
 * A reader and judge over the OpenAI wire format. The reader answers "answer: <question>"; the
 * judge says "Yes." except for a few questions ("I think no", or an unparseable reply). Faults:
 * the first reader call for one question gets 429 with retry-after, another gets two 500s, a
 * third times out once.
 */
function llmHandler(options: { delayMs?: number; faults?: boolean } = {}) {
  const attempts = new Map<string, number>();
  const judgePrompts: { prompt: string }[] = [];
  const handler = (request: RecordedRequest): WireReply => {
    const prompt = promptOf(request);
    if (isJudge(request)) {
      judgePrompts.push({ prompt });
      const reply = prompt.includes('What degree did I graduate with?')
        ? 'I think no'
        : prompt.includes('How long is my daily commute')
          ? 'The response is partially right'
          : 'Yes.';
      return { ...completion(reply), delayMs: options.delayMs };
    }
    const question = /Question: (.*)\n/.exec(prompt)?.[1] ?? 'unknown';
    const attempt = (attempts.get(question) ?? 0) + 1;
    attempts.set(question, attempt);
    if (options.faults) {
      if (question.startsWith('How many projects have I led') && attempt === 1) {
        return { status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'rate limited' } } };
      }
      if (question.startsWith('What was my personal best time') && attempt <= 2) {
        return { status: 500, json: { error: { message: 'server burst' } } };
      }
      if (question.startsWith('Where did Rachel move') && attempt === 1) {
        return { ...completion('too late'), delayMs: 1500 };
      }
    }
    return { ...completion(`answer: ${question}`), delayMs: options.delayMs };
  };
  return { handler, judgePrompts };
}

let server: OpenAiWireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function qaArgs(out: string, cacheDir: string, runId: string): string[] {
  return [
    'run',
    '--dataset',
    'sample',
    '--reader-model',
    'gpt-4o-mini',
    '--judge-model',
    'gpt-4o-2024-08-06',
    '--out',
    out,
    '--run-id',
    runId,
    '--cache-dir',
    cacheDir,
    '--timeout',
    '1000',
    '--max-retries',
    '3',
  ];
}

describe('lme run with a reader and judge over the OpenAI wire format', () => {
  it('answers, judges per type, survives 429/500/timeout, and reruns entirely from the cache', async () => {
    const llm = llmHandler({ faults: true });
    server = await startOpenAiWireServer({ '/chat/completions': llm.handler });
    const out = mkdtempSync(join(tmpdir(), 'lme-qa-'));
    const cacheDir = join(out, 'cache');
    const environment = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: API_KEY };

    const first = await startCli(qaArgs(out, cacheDir, 'first'), environment).done;
    expect(first.stderr).not.toContain('QA skipped');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/accuracy \(official, strict\)/);
    expect(first.stdout).toMatch(/Task-averaged accuracy \(official\)/);

    const dir = join(out, 'first');
    const samples = readFileSync(join(dir, 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Sample);
    expect(samples).toHaveLength(22);
    expect(samples.every((sample) => sample.error === null)).toBe(true);
    const byId = new Map(samples.map((sample) => [sample.question_id, sample]));
    expect(byId.get('e47becba')?.judge).toEqual({ label: false, score: 0 });
    expect(byId.get('118b2229')?.judge?.label).toBeNull();
    expect(byId.get('118b2229')?.judge?.error).toMatch(/could not be read/);
    expect(byId.get('51a45a95')?.judge).toEqual({ label: true, score: 1 });
    expect(byId.get('51a45a95')?.hypothesis).toBe(
      'answer: Where did I redeem a $5 coupon on coffee creamer?',
    );
    expect(byId.get('51a45a95')?.usage.reader).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 5,
      cached: false,
    });

    // Every judge prompt carries its type's official rubric.
    expect(llm.judgePrompts).toHaveLength(22);
    const records = JSON.parse(
      gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'))).toString(),
    ) as { question_id: string; question_type: string; question: string }[];
    for (const record of records) {
      const prompt = llm.judgePrompts.find(({ prompt }) =>
        prompt.includes(`Question: ${record.question}\n`),
      )?.prompt;
      const rubric =
        RUBRIC_BY_TYPE[record.question_id.includes('_abs') ? 'abstention' : record.question_type]!;
      expect(prompt, record.question_id).toContain(rubric);
    }

    const hypotheses = readFileSync(join(dir, 'hypotheses.jsonl'), 'utf8').trim().split('\n');
    expect(hypotheses).toHaveLength(22);
    expect(hypotheses[0]).toMatch(/^\{"question_id": "e47becba", "hypothesis": "answer: /);

    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    // 20 Yes, 1 no, 1 judge error: accuracy excludes the error, strict counts it wrong.
    expect(summary.metrics.overall.metrics['qa.accuracy']).toBeCloseTo(20 / 21, 12);
    expect(summary.metrics.overall.metrics['qa.accuracy_strict']).toBeCloseTo(20 / 22, 12);

    // Nothing in the run folder or the output holds the key.
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(API_KEY);
    expect(first.stdout + first.stderr).not.toContain(API_KEY);
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${API_KEY}`)).toBe(
      true,
    );

    // No completion is sent again; the preflight's one free GET /models is all the server sees.
    const before = server.requests.length;
    const second = await startCli(qaArgs(out, cacheDir, 'second'), environment).done;
    expect(second.status).toBe(0);
    expect(server.requests.slice(before).map((request) => request.path)).toEqual(['/models']);
    const secondSummary = JSON.parse(readFileSync(join(out, 'second', 'summary.json'), 'utf8'));
    expect(withoutLatency(secondSummary.metrics)).toEqual(withoutLatency(summary.metrics));
  });

  it('loses no finished question to SIGINT or SIGKILL, and --resume ends with the uninterrupted summary', async () => {
    const llm = llmHandler({ delayMs: 30 });
    server = await startOpenAiWireServer({ '/chat/completions': llm.handler });
    const out = mkdtempSync(join(tmpdir(), 'lme-qa-kill-'));
    const environment = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: API_KEY };
    const lines = (runId: string) => {
      try {
        return readFileSync(join(out, runId, 'samples.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    const waitForLines = async (runId: string, count: number) => {
      while (lines(runId) < count) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    // The uninterrupted run and the two interrupted ones at once, then the two resumes at once:
    // the same five processes as one after another, in about half the wall time.
    const whole = startCli(qaArgs(out, join(out, 'cache-whole'), 'whole'), environment).done;
    const interrupted = async (signal: 'SIGINT' | 'SIGKILL') => {
      const runId = `killed-${signal}`;
      const started = startCli(qaArgs(out, join(out, `cache-${signal}`), runId), environment);
      await waitForLines(runId, 5);
      started.child.kill(signal);
      const result = await started.done;
      const saved = lines(runId);
      expect(saved).toBeGreaterThanOrEqual(5);
      expect(saved).toBeLessThan(22);
      if (signal === 'SIGINT') {
        expect(result.status).toBe(130);
        expect(result.stderr).toMatch(/lme run --resume/);
      }
      const resumed = await startCli(['run', '--resume', join(out, runId)], environment).done;
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(new RegExp(`resuming .*: ${saved} questions done`));
      expect(lines(runId)).toBe(22);
    };
    await Promise.all([interrupted('SIGINT'), interrupted('SIGKILL')]);
    expect((await whole).status).toBe(0);
    const metricsOf = (runId: string) =>
      withoutLatency(JSON.parse(readFileSync(join(out, runId, 'summary.json'), 'utf8')).metrics);
    expect(metricsOf('killed-SIGINT')).toEqual(metricsOf('whole'));
    expect(metricsOf('killed-SIGKILL')).toEqual(metricsOf('whole'));
  }, 240_000); // five CLI processes, three at a time: slow on a loaded 2-core machine

  it('plans a dry run without a single request', async () => {
    const llm = llmHandler();
    server = await startOpenAiWireServer({ '/chat/completions': llm.handler });
    const out = mkdtempSync(join(tmpdir(), 'lme-dry-'));
    const result = await startCli(
      [...qaArgs(out, join(out, 'cache'), 'dry'), '--judge-samples', '3', '--dry-run'],
      { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: API_KEY },
    ).done;
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^questions: 22 \(.*; 4 abstention\)$/m);
    expect(result.stdout).toMatch(/^documents to index: 1039$/m);
    expect(result.stdout).toMatch(
      /^LLM reader \(gpt-4o-mini\): 22 calls, ~[\d,]+ prompt \+ ≤17,600 completion tokens, ~\$/m,
    );
    // --judge-samples 3: each vote is its own call.
    expect(result.stdout).toMatch(/^LLM judge \(gpt-4o-2024-08-06\): 66 calls, .* ≤660 completion tokens/m);
    expect(server.requests).toHaveLength(0);
    expect(() => readFileSync(join(out, 'dry', 'samples.jsonl'))).toThrow();
  });

  it('says in one line how to enable QA when no reader model is set', () => {
    const result = runCli(['run', '--dataset', 'sample', '--out', mkdtempSync(join(tmpdir(), 'lme-noqa-'))]);
    // The message says why when it fails (it exited 1 once in CI, passing alone: stderr was not shown).
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('QA skipped: set --reader-model');
  });
});

import { join } from 'node:path';
import {
  chatCompletionReply,
  type OpenAiWireServer,
  type RecordedRequest,
  startOpenAiWireServer,
  type WireReply,
} from '@lme/search-core/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadLongMemEval } from '../../benchmarks/longmemeval/load-longmemeval.js';
import { evidenceSessions, type LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { parseRunConfig } from '../../config/run-sections.js';
import type { Sample } from '../../results/sample.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { aggregateMetrics } from '../outputs/aggregate-metrics.js';
import { checkReaderSettings, createQaStage } from './qa-stage.js';
import { emptySample } from './run-question.js';

const ENVIRONMENT = { OPENAI_API_KEY: 'sk-test-qa-stage-1234' };
const SAMPLE = join(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sample.json.gz');
const JUDGE_REPLIES = ['Yes.', 'No.', 'I cannot tell from the response.'];

type Message = { role: string; content: string };
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: Message[] }).messages[0]?.content ?? '';
const isJudge = (request: RecordedRequest) => (request.body as { max_tokens?: number }).max_tokens === 10;

/**
 * print_qa_metrics.py, rule for rule, from evaluate_qa.py's labels (`'yes' in reply.strip().lower()`):
 * per type (the six types, abstention questions inside their type) the mean label; "Task-averaged
 * Accuracy" the mean of the per-type means; "Overall Accuracy" the mean of every label.
 */
function officialQaMetrics(graded: readonly { type: string; reply: string }[]) {
  const types = [
    'single-session-user',
    'single-session-preference',
    'single-session-assistant',
    'multi-session',
    'temporal-reasoning',
    'knowledge-update',
  ];
  const typeToLabels = new Map<string, number[]>(types.map((type) => [type, []]));
  for (const { type, reply } of graded) {
    typeToLabels.get(type)!.push(reply.trim().toLowerCase().includes('yes') ? 1 : 0);
  }
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const all = [...typeToLabels.values()].flat();
  return {
    byType: Object.fromEntries([...typeToLabels].map(([type, labels]) => [type, mean(labels)])),
    taskAveraged: mean([...typeToLabels.values()].map(mean)),
    overall: mean(all),
  };
}

describe('the QA stage against an OpenAI-compatible loopback server', () => {
  let server: OpenAiWireServer | undefined;
  let records: LongMemEvalRecord[];

  beforeAll(async () => {
    records = (await loadLongMemEval(SAMPLE)).records;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const config = (baseUrl: string, extra: RunConfigInput = {}) =>
    parseRunConfig({
      provider: 'oracle',
      readerModel: 'gpt-test',
      baseUrl,
      cache: false,
      maxRetries: 0,
      ...extra,
    });

  it('reports the strict accuracy and task average print_qa_metrics.py computes from the same judge replies', async () => {
    let judgeCalls = 0;
    const replies: string[] = [];
    server = await startOpenAiWireServer({
      '/chat/completions': (request): WireReply => {
        if (!isJudge(request)) return chatCompletionReply('It was 22 days.');
        const reply = JUDGE_REPLIES[judgeCalls++ % JUDGE_REPLIES.length]!;
        replies.push(reply);
        return chatCompletionReply(reply);
      },
    });
    const stage = (await createQaStage(config(server.baseUrl), ENVIRONMENT))!;
    const samples: Sample[] = [];
    for (const [position, record] of records.entries()) {
      const result = await stage.answer({
        record,
        readerHaystackSessions: evidenceSessions(record),
        rankedSessionIds: [],
      });
      samples.push({ ...emptySample(record, position), ...result, metrics: result.metrics });
    }
    // Every reader request carries the official max_tokens, 800.
    const readerRequests = server.requests.filter((request) => !isJudge(request));
    expect(
      new Set(readerRequests.map((request) => (request.body as { max_tokens: number }).max_tokens)),
    ).toEqual(new Set([800]));
    const official = officialQaMetrics(
      records.map((record, index) => ({ type: record.question_type, reply: replies[index]! })),
    );
    const summary = aggregateMetrics({
      runId: 't',
      dataset: 'sample',
      convention: 'official',
      exclusion: 'A',
      samples,
    });
    expect(samples.filter((sample) => sample.judge?.label === null)).toHaveLength(
      Math.floor(records.length / 3),
    );
    expect(summary.metrics.overall.metrics['qa.accuracy_strict']).toBe(official.overall);
    expect(summary.metrics.overall.metrics['qa.accuracy_task_avg']).toBe(official.taskAveraged);
    for (const [type, accuracy] of Object.entries(official.byType)) {
      expect(summary.metrics.by_type[type]?.metrics['qa.accuracy_strict'], type).toBe(accuracy);
    }
    // lme's own lenient figures leave the unparseable replies out, so they are higher here.
    expect(summary.metrics.overall.metrics['qa.accuracy']).toBeGreaterThan(official.overall);
    expect(summary.metrics.overall.metrics['qa.accuracy_lenient_task_avg']).toBeGreaterThan(
      official.taskAveraged,
    );
  });

  it('fails the question, not grades it wrong, when the judge answers 500 or a body with no choice', async () => {
    const record = records[0]!;
    for (const judgeReply of [
      { status: 500, json: { error: { message: 'judge down' } } },
      { json: { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [] } },
      { json: { id: 'x', object: 'chat.completion', created: 0, model: 'm' } },
    ] satisfies WireReply[]) {
      server = await startOpenAiWireServer({
        '/chat/completions': (request) => (isJudge(request) ? judgeReply : chatCompletionReply('22 days')),
      });
      const stage = (await createQaStage(config(server.baseUrl), ENVIRONMENT))!;
      await expect(
        stage.answer({ record, readerHaystackSessions: evidenceSessions(record), rankedSessionIds: [] }),
      ).rejects.toThrow(
        /^Chat completion for model "gpt-4o-2024-08-06" (failed with HTTP 500|returned no choice|returned a body that could not be read)/,
      );
      await server.close();
      server = undefined;
    }
  });

  it('reads the sessions a session retriever ranked, a repeated haystack session twice under the official convention', async () => {
    const record = records.find((candidate) => candidate.haystack_session_ids.length > 3)!;
    const [first, second] = record.haystack_session_ids;
    // A haystack holding `first` twice, the later copy on a later date.
    const repeated: LongMemEvalRecord = {
      ...record,
      haystack_session_ids: [...record.haystack_session_ids, first!],
      haystack_dates: [...record.haystack_dates, '2099/01/01 (Thu) 00:00'],
      haystack_sessions: [...record.haystack_sessions, record.haystack_sessions[0]!],
    };
    const prompts: string[] = [];
    server = await startOpenAiWireServer({
      '/chat/completions': (request) => {
        if (!isJudge(request)) prompts.push(promptOf(request));
        return chatCompletionReply('yes');
      },
    });
    for (const convention of ['official', 'evidence'] as const) {
      const stage = (await createQaStage(
        config(server.baseUrl, { provider: 'pipeline', readerTopK: 2, convention }),
        ENVIRONMENT,
      ))!;
      await stage.answer({
        record: repeated,
        rankedSessionIds: [first!, first!, second!],
      });
    }
    const [official, evidence] = prompts;
    expect(official!.match(/Session Date: 2099\/01\/01/g)).toHaveLength(2);
    expect(official).not.toContain(`Session Date: ${record.haystack_dates[1]}`);
    expect(evidence!.match(/Session Date: 2099\/01\/01/g)).toHaveLength(1);
    expect(evidence).toContain(`Session Date: ${record.haystack_dates[1]}`);
  });

  it('refuses reader settings the official script cannot run, naming the flags', () => {
    const base = { readerModel: 'gpt-test' };
    expect(() =>
      checkReaderSettings(parseRunConfig({ ...base, readerNotes: true, historyFormat: 'nl' })),
    ).toThrow(/^--reader-notes needs --history-format json/);
    expect(() => checkReaderSettings(parseRunConfig({ ...base, readerContext: 'turn' }))).toThrow(
      /^--reader-context turn needs turn retrieval/,
    );
    expect(() =>
      checkReaderSettings(
        parseRunConfig({ ...base, readerContext: 'turn', granularity: 'turn', readerHistory: 'user' }),
      ),
    ).toThrow(/cannot be combined with --reader-history user/);
    expect(() =>
      checkReaderSettings(parseRunConfig({ ...base, readerContext: 'turn', provider: 'oracle' })),
    ).toThrow(/--provider oracle gives whole sessions/);
    expect(() =>
      checkReaderSettings(parseRunConfig({ ...base, readerContext: 'turn', granularity: 'turn' })),
    ).not.toThrow();
  });
});

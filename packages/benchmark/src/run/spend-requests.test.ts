import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chatCompletionReply,
  type OpenAiWireServer,
  type RecordedRequest,
  startOpenAiWireServer,
  type WireReply,
} from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../results/sample.js';
import { startCli } from '../testing/run-cli-async.js';
import { STORED_TEXT_CAP } from './phases/stored-text.js';

const isChat = (request: RecordedRequest) => request.path === '/chat/completions';
const isJudge = (request: RecordedRequest) =>
  isChat(request) && (request.body as { max_tokens?: number }).max_tokens === 10;
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';

/**
 * Issue 50 H9 against a loopback server speaking the OpenAI wire format: the judge's first
 * attempt at each question gets a 500 (the client retries it), and the reader answers one question
 * with far more text than a sample stores.
 */
describe('spend and stored text of a QA run', () => {
  let server: OpenAiWireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('counts every request the server received, retries included, and bounds a huge answer', async () => {
    const judgeAttempts = new Map<string, number>();
    let readerCalls = 0;
    server = await startOpenAiWireServer({
      '/chat/completions': (request): WireReply => {
        const prompt = promptOf(request);
        if (isJudge(request)) {
          const attempt = (judgeAttempts.get(prompt) ?? 0) + 1;
          judgeAttempts.set(prompt, attempt);
          if (attempt === 1) return { status: 500, json: { error: { message: 'burst' } } };
          return chatCompletionReply('Yes.');
        }
        readerCalls++;
        const huge = readerCalls === 1;
        return chatCompletionReply(
          huge ? `Business Administration ${'x'.repeat(3 * STORED_TEXT_CAP)}` : 'an answer',
        );
      },
    });
    const out = mkdtempSync(join(tmpdir(), 'lme-spend-'));
    const result = await startCli(
      [
        'run',
        '--dataset',
        'sample',
        '--reader-model',
        'gpt-4o-mini',
        '--judge-model',
        'gpt-4o-2024-08-06',
        '--no-cache',
        '--max-retries',
        '2',
        '--limit',
        '4',
        '--out',
        out,
        '--run-id',
        'spend',
      ],
      { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-test' },
    ).done;
    expect(result.status, result.stderr).toBe(0);
    const judgeRequests = server.requests.filter(isJudge).length;
    const readerRequests = server.requests.filter(isChat).length - judgeRequests;
    expect(judgeRequests).toBe(8);
    expect(readerRequests).toBe(4);
    // What the server received: an attempt whose connection failed before reaching it (a reused
    // socket it had closed; the client retries it) is no request it received, and is not counted.
    expect(result.stderr).toContain(`spend: reader ${readerRequests} requests, `);
    expect(result.stderr).toContain(` · judge ${judgeRequests} requests, `);

    const samples = readFileSync(join(out, 'spend', 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Sample);
    expect(samples.map((sample) => sample.usage.judge?.requests)).toEqual([2, 2, 2, 2]);
    const long = samples.find((sample) => (sample.hypothesis ?? '').startsWith('Business Administration'));
    expect(long?.hypothesis).toMatch(
      new RegExp(` … \\[lme: cut to ${STORED_TEXT_CAP} of ${3 * STORED_TEXT_CAP + 24} characters\\]$`),
    );
    expect(long!.hypothesis!.length).toBeLessThan(STORED_TEXT_CAP + 100);
    const csv = readFileSync(join(out, 'spend', 'samples.csv'), 'utf8');
    expect(csv.length).toBeLessThan(STORED_TEXT_CAP + 10_000);
  }, 120_000);
});

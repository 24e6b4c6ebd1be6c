import { createChatClient } from '@lme/search-core';
import { chatCompletionReply, type RecordedRequest, startOpenAiWireServer } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import { startCli } from '../testing/run-cli-async.js';
import { createJudge } from './judge.js';
import { renderJudgeProbe, runJudgeProbe } from './judge-probe.js';
import { JUDGE_PROBES } from './judge-probe-set.js';

/** The judge prompt of a request: the one user message. */
function promptOf(request: RecordedRequest): string {
  const body = request.body as { messages: { content: string }[] };
  return body.messages[0]!.content;
}

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}: ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A strict judge: accepts a response only when it holds the gold answer (or the gold before a
 * parenthesis) word for word, or is itself part of the gold. Reads both rubrics' prompts.
 */
function strictVerdict(prompt: string): boolean {
  // The last match: Mem0's prompt shows an example gold answer before the real one.
  const last = (pattern: RegExp) => [...prompt.matchAll(pattern)].at(-1)![1]!;
  const gold = last(/(?:Correct Answer|Gold answer): (.*?)\n/g);
  const response = last(/(?:Model Response|Generated answer): (.*?)\n/g);
  const said = normalize(response);
  const golds = [gold, gold.split('(')[0]!].map(normalize).filter(Boolean);
  return golds.some((candidate) => said.includes(candidate) || candidate.includes(said));
}

/** The reply format of each rubric: `yes`/`no` (LongMemEval) or Mem0's JSON label. */
function reply(prompt: string, accept: boolean) {
  if (prompt.includes('CORRECT or WRONG'))
    return chatCompletionReply(JSON.stringify({ label: accept ? 'CORRECT' : 'WRONG' }));
  return chatCompletionReply(accept ? 'yes' : 'no');
}

async function probeWith(verdict: (prompt: string) => boolean, rubric: 'longmemeval' | 'locomo-llm') {
  const server = await startOpenAiWireServer({
    '/chat/completions': (request) => reply(promptOf(request), verdict(promptOf(request))),
  });
  try {
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
    const judge = createJudge({ client, model: 'loopback-judge', rubric });
    return await runJudgeProbe({ judge, rubric });
  } finally {
    await server.close();
  }
}

const rates = (result: Awaited<ReturnType<typeof runJudgeProbe>>) =>
  Object.fromEntries(result.kinds.map((kind) => [kind.kind, kind.acceptance]));

describe('lme judge-probe', () => {
  it('holds real questions with one answer of each kind, for both rubrics', () => {
    expect(JUDGE_PROBES.longmemeval).toHaveLength(5);
    expect(JUDGE_PROBES['locomo-llm']).toHaveLength(4);
  });

  it('shows a judge that accepts everything as accepting every vague and wrong answer', async () => {
    for (const rubric of ['longmemeval', 'locomo-llm'] as const) {
      const result = await probeWith(() => true, rubric);
      expect(rates(result)).toEqual({ vague: 1, wrong: 1, verbose: 1, correct: 1 });
      expect(renderJudgeProbe(result)).toContain(
        'This judge accepts answers a sound judge rejects (vague, wrong); accepts every right probe.',
      );
    }
  });

  it('shows a strict judge as rejecting vague and wrong answers and accepting right ones', async () => {
    for (const rubric of ['longmemeval', 'locomo-llm'] as const) {
      const result = await probeWith(strictVerdict, rubric);
      expect(rates(result)).toEqual({ vague: 0, wrong: 0, verbose: 1, correct: 1 });
      expect(renderJudgeProbe(result)).toContain(
        'This judge rejects every vague and wrong probe; accepts every right probe.',
      );
    }
  });

  it('counts a failed judge call as a judge error of its probe, and the command exits 1 when nothing was graded', async () => {
    const server = await startOpenAiWireServer({
      '/chat/completions': () => ({ status: 400, json: { error: { message: 'bad request' } } }),
    });
    try {
      const { done } = startCli(
        ['judge-probe', '--base-url', server.baseUrl, '--max-retries', '0', '--no-cache'],
        {
          OPENAI_API_KEY: 'test',
        },
      );
      const result = await done;
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('| vague (vague but on topic)');
      expect(result.stderr).toMatch(/^lme judge-probe: no probe answer could be graded \(first: .*\)\.\n$/);
    } finally {
      await server.close();
    }
  });

  it('prints the acceptance per kind from the command line against a loopback judge', async () => {
    const server = await startOpenAiWireServer({
      '/chat/completions': (request) => reply(promptOf(request), strictVerdict(promptOf(request))),
    });
    try {
      const { done } = startCli(['judge-probe', '--judge-base-url', server.baseUrl, '--no-cache', '--json'], {
        OPENAI_API_KEY: 'test',
      });
      const result = await done;
      expect(result.status).toBe(0);
      const parsed = JSON.parse(result.stdout) as {
        rubric: string;
        kinds: { kind: string; acceptance: number }[];
      };
      expect(parsed.rubric).toBe('longmemeval');
      expect(parsed.kinds.map((kind) => [kind.kind, kind.acceptance])).toEqual([
        ['vague', 0],
        ['wrong', 0],
        ['verbose', 1],
        ['correct', 1],
      ]);
      expect(server.requests).toHaveLength(20);
    } finally {
      await server.close();
    }
  });
});

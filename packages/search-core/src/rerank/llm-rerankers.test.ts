import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RetrievalHit } from '../core/retriever.js';
import { createChatClient } from '../llm/create-chat-client.js';
import {
  chatCompletionReply,
  type OpenAiWireServer,
  startOpenAiWireServer,
} from '../testing/openai-wire-server.js';
import { createLlmListwiseReranker } from './llm-listwise-reranker.js';
import { createLlmPointwiseReranker } from './llm-pointwise-reranker.js';
import { readLogprobReply } from './logprob-chat-client.js';
import { rerankHits } from './rerank-hits.js';
import { parseListwiseReply } from './rerank-prompts.js';

const candidatesOf = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: `t${index}`,
    sessionId: 's',
    text: `turn number ${index}`,
    score: count - index,
    routes: {},
  }));

let server: OpenAiWireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const client = (options: { maxRetries?: number; timeoutMs?: number; cacheDir?: string } = {}) =>
  createChatClient({ baseURL: server!.baseUrl, apiKey: 'test', maxRetries: 0, ...options });

/** The passage numbers of a listwise prompt, with the turn each stands for. */
function passagesOf(body: unknown): number[] {
  const content = (body as { messages: { content: string }[] }).messages[1]!.content;
  return [...content.matchAll(/^\[(\d+)\] turn number (\d+)$/gm)].map((match) => Number(match[2]));
}

describe('listwise LLM reranker (RankGPT sliding window)', () => {
  it('ranks windows from the bottom up so a good candidate at the bottom can reach the top', async () => {
    // The model puts the highest turn number first in every window.
    server = await startOpenAiWireServer({
      '/chat/completions': (request) => {
        const turns = passagesOf(request.body);
        const ranked = turns
          .map((turn, index) => ({ turn, index }))
          .sort((left, right) => right.turn - left.turn)
          .map((entry) => `[${entry.index + 1}]`);
        return chatCompletionReply(ranked.join(' > '));
      },
    });
    const reranker = createLlmListwiseReranker({ client: client(), model: 'm', windowSize: 4, step: 2 });
    const result = await reranker.rerank({ query: 'q', candidates: candidatesOf(8) });
    expect(server.requests).toHaveLength(3); // windows 4-7, 2-5, 0-3
    expect(passagesOf(server.requests[0]!.body)).toEqual([4, 5, 6, 7]);
    expect(result.order.slice(0, 2)).toEqual([7, 6]);
    expect(result.order).toHaveLength(8);
    expect(result.usage).toEqual({ calls: 3, cachedCalls: 0, promptTokens: 300, completionTokens: 15 });
  });

  it('keeps identifiers a reply leaves out after the ones it names, and records them', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('[3] > [1]') });
    const reranker = createLlmListwiseReranker({ client: client(), model: 'm' });
    const result = await reranker.rerank({ query: 'q', candidates: candidatesOf(4) });
    expect(result.order).toEqual([2, 0, 1, 3]);
    expect(result.missing).toEqual([1, 3]);
  });

  it('falls back to the incoming order on a malformed reply, a 500 or a 429, recording the error', async () => {
    const hits: RetrievalHit[] = candidatesOf(3).map((candidate, document) => ({ ...candidate, document }));
    const documents = hits.map((hit) => ({
      id: hit.id,
      text: `turn number ${hit.document}`,
      sessionId: 's',
    }));
    for (const reply of [
      chatCompletionReply('I cannot rank these.'),
      { status: 500, json: { error: { message: 'internal' } } },
      { status: 429, json: { error: { message: 'rate limited' } } },
    ]) {
      server = await startOpenAiWireServer({ '/chat/completions': () => reply });
      const reranker = createLlmListwiseReranker({ client: client(), model: 'm' });
      const { hits: out, trace } = await rerankHits({ reranker, query: 'q', hits, documents, depth: 10 });
      expect(out.map((hit) => hit.id)).toEqual(['t0', 't1', 't2']);
      expect(trace.fallback).toMatch(/without any candidate identifier|HTTP 500|HTTP 429/);
      await server.close();
      server = undefined;
    }
  });

  it('reads identifiers with or without brackets, drops repeats and numbers out of range', () => {
    expect(parseListwiseReply('[2] > [2] > 9 > 1', 3)).toEqual([1, 0]);
    expect(parseListwiseReply('none', 3)).toBeUndefined();
  });
});

function logprobReply(top: Record<string, number>, text = Object.keys(top)[0]!) {
  return {
    json: {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text },
          finish_reason: 'length',
          logprobs: {
            content: [
              {
                token: text,
                logprob: top[text] ?? -1,
                bytes: null,
                top_logprobs: Object.entries(top).map(([token, logprob]) => ({
                  token,
                  logprob,
                  bytes: null,
                })),
              },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 1, total_tokens: 51 },
    },
  };
}

describe('pointwise LLM reranker', () => {
  it('asks for logprobs and scores each candidate by P(yes)', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (request) => {
        const content = (request.body as { messages: { content: string }[] }).messages[1]!.content;
        return content.includes('turn number 2')
          ? logprobReply({ Yes: Math.log(0.9), No: Math.log(0.1) })
          : logprobReply({ No: Math.log(0.7), ' yes': Math.log(0.3) });
      },
    });
    const reranker = createLlmPointwiseReranker({ client: client(), model: 'm' });
    const result = await reranker.rerank({ query: 'q', candidates: candidatesOf(3) });
    expect(server.requests[0]!.body).toMatchObject({ logprobs: true, top_logprobs: 5, max_tokens: 1 });
    expect(result.order).toEqual([2, 0, 1]);
    expect(result.scores[2]).toBeCloseTo(0.9);
    expect(result.scores[0]).toBeCloseTo(0.3);
    expect(result.usage.calls).toBe(3);
  });

  it('serves a repeated judgement, logprobs included, from the completion cache', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => logprobReply({ Yes: Math.log(0.8), No: Math.log(0.2) }),
    });
    const cacheDir = await mkdtemp(join(tmpdir(), 'lme-pointwise-cache-'));
    try {
      const reranker = createLlmPointwiseReranker({ client: client({ cacheDir }), model: 'm' });
      const first = await reranker.rerank({ query: 'q', candidates: candidatesOf(2) });
      const again = createLlmPointwiseReranker({ client: client({ cacheDir }), model: 'm' });
      const second = await again.rerank({ query: 'q', candidates: candidatesOf(2) });
      expect(server.requests).toHaveLength(2);
      expect(second.scores).toEqual(first.scores);
      expect(second.scores[0]).toBeCloseTo(0.8);
      expect(second.usage).toMatchObject({ calls: 2, cachedCalls: 2 });
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('reports a failed judgement in the words of the reader and keeps the incoming order', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ status: 500, json: { error: { message: 'internal' } } }),
    });
    const reranker = createLlmPointwiseReranker({ client: client(), model: 'm' });
    const hits: RetrievalHit[] = candidatesOf(2).map((candidate, document) => ({ ...candidate, document }));
    const documents = hits.map((hit) => ({ id: hit.id, text: hit.id, sessionId: 's' }));
    const { hits: out, trace } = await rerankHits({ reranker, query: 'q', hits, documents, depth: 2 });
    expect(out.map((hit) => hit.id)).toEqual(['t0', 't1']);
    expect(trace.fallback).toMatch(
      /Chat completion for model "m" failed with HTTP 500 after 1 attempt: internal/,
    );
  });

  it('falls back to the yes/no text when the endpoint returns no logprobs', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (request) =>
        chatCompletionReply(JSON.stringify(request.body).includes('turn number 1') ? 'Yes' : 'No'),
    });
    const reranker = createLlmPointwiseReranker({ client: client(), model: 'm' });
    const result = await reranker.rerank({ query: 'q', candidates: candidatesOf(3) });
    expect(result.order).toEqual([1, 0, 2]);
  });

  it('fails a question whose judgement is neither yes nor no', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('Maybe') });
    const reranker = createLlmPointwiseReranker({ client: client(), model: 'm' });
    await expect(reranker.rerank({ query: 'q', candidates: candidatesOf(2) })).rejects.toThrow(
      /answered neither yes nor no for candidate t\d: "Maybe"/,
    );
  });

  it('times out through the client and the stage keeps the incoming order', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ delayMs: 5_000, ...chatCompletionReply('Yes') }),
    });
    const reranker = createLlmPointwiseReranker({ client: client({ timeoutMs: 30 }), model: 'm' });
    const hits: RetrievalHit[] = candidatesOf(2).map((candidate, document) => ({ ...candidate, document }));
    const documents = hits.map((hit) => ({ id: hit.id, text: hit.id, sessionId: 's' }));
    const { hits: out, trace } = await rerankHits({ reranker, query: 'q', hits, documents, depth: 2 });
    expect(out.map((hit) => hit.id)).toEqual(['t0', 't1']);
    expect(trace.fallback).toMatch(/timed out after 30 ms/);
  });

  it('reads P(yes) from the logprobs text a reply carries', () => {
    expect(readLogprobReply(['Yes']).yesProbability).toBeUndefined();
    expect(
      readLogprobReply(['Yes', `lme-logprobs:${JSON.stringify({ Yes: Math.log(0.6), No: Math.log(0.2) })}`])
        .yesProbability,
    ).toBeCloseTo(0.75);
  });
});

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient, ChatCompleteOptions } from './chat-client.js';
import {
  clearCompletionCache,
  completionCacheKey,
  endpointOrigin,
  readCompletionCacheStats,
  withCompletionCache,
} from './completion-cache.js';

function countingClient(): ChatClient & { calls: number } {
  const client = {
    id: 'fake-chat',
    calls: 0,
    async complete(options: ChatCompleteOptions) {
      client.calls += 1;
      const text = `answer to ${options.messages.at(-1)?.content}`;
      return {
        text,
        texts: [text],
        usage: { promptTokens: 3, completionTokens: 2 },
        cached: false,
        latencyMs: 1,
      };
    },
  };
  return client;
}

const request = (content: string): ChatCompleteOptions => ({
  model: 'gpt-test',
  messages: [{ role: 'user', content }],
  temperature: 0,
  maxTokens: 10,
});

describe('withCompletionCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lme-completion-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every completion below <cache root>/llm, the one layout all callers share', async () => {
    const inner = countingClient();
    const cached = withCompletionCache(inner, { dir });
    await cached.complete(request('a'));
    expect((await cached.complete(request('a'))).cached).toBe(true);
    expect(inner.calls).toBe(1);
    const files = (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => relative(dir, join(dir, name)))).toEqual([
      expect.stringMatching(/^llm[/\\]([0-9a-f]{2})[/\\]\1[0-9a-f]{62}\.json$/),
    ]);
  });

  it('counts and clears its entries for `lme cache stats` and `lme cache clear`', async () => {
    const cached = withCompletionCache(countingClient(), { dir });
    await cached.complete(request('a'));
    await cached.complete(request('b'));
    const stats = await readCompletionCacheStats({ dir });
    expect(stats).toMatchObject({ dir: join(dir, 'llm'), entries: 2 });
    expect(stats.bytes).toBeGreaterThan(0);
    expect(await clearCompletionCache({ dir })).toMatchObject({ entries: 2 });
    expect(await readCompletionCacheStats({ dir })).toMatchObject({ entries: 0, bytes: 0 });
    expect(await readdir(dir)).toEqual([]);
  });

  it('records the endpoint that made an entry and tells of hits another endpoint made', async () => {
    const inner = countingClient();
    const first = withCompletionCache(inner, { dir, endpoint: 'http://a:1/v1' });
    await first.complete(request('a'));
    const files = (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.json'));
    const entry = JSON.parse(await readFile(join(dir, files[0]!), 'utf8'));
    expect(entry.endpoint).toBe('http://a:1/v1');
    const others: string[] = [];
    const second = withCompletionCache(inner, {
      dir,
      endpoint: 'http://b:2/v1',
      onOtherEndpoint: (endpoint) => others.push(endpoint),
    });
    expect((await second.complete(request('a'))).cached).toBe(true);
    const same = withCompletionCache(inner, {
      dir,
      endpoint: 'http://a:1/v1',
      onOtherEndpoint: (endpoint) => others.push(`same ${endpoint}`),
    });
    await same.complete(request('a'));
    expect(others).toEqual(['http://a:1/v1']);
    expect(inner.calls).toBe(1);

    // An entry of an older version (no endpoint) is still served, and counted as no one's.
    delete entry.endpoint;
    await writeFile(join(dir, files[0]!), JSON.stringify(entry));
    expect((await second.complete(request('a'))).text).toBe('answer to a');
    expect(others).toEqual(['http://a:1/v1']);
  });

  it('warns once, naming the folder, when entries cannot be written', async () => {
    await writeFile(join(dir, 'llm'), 'a file where the folder goes');
    const warnings: string[] = [];
    const cached = withCompletionCache(countingClient(), {
      dir,
      onWarning: (message) => warnings.push(message),
    });
    await cached.complete(request('a'));
    await cached.complete(request('b'));
    expect(warnings).toEqual([
      `The LLM cache folder ${join(dir, 'llm')} cannot be used (ENOTDIR), so answers are not cached and a later run pays for them again: make it a folder lme can write, point --cache-dir at another folder, or run with --no-cache.`,
    ]);
  });
});

describe('completionCacheKey', () => {
  const judgement: ChatCompleteOptions = {
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'Is the sky blue? Answer yes or no only.' }],
    temperature: 0,
    maxTokens: 1,
  };

  it('keeps the key of every request without topLogprobs as it was', () => {
    // Pinned before topLogprobs existed: a changed value would orphan every cached completion.
    expect(completionCacheKey(judgement)).toBe(
      '8706dfb2f3b021508ce9d56634162385c80293ba68fc9b8c5e6859e3422625a5',
    );
    expect(completionCacheKey({ ...judgement, n: 3, seed: 7 })).toBe(
      'f81b2837294dc2c8f700c9c87b5c4d90aefe55565ab34ce9d9c8e03cec3beab4',
    );
    expect(completionCacheKey({ ...judgement, topLogprobs: undefined })).toBe(completionCacheKey(judgement));
  });

  it('gives a request with topLogprobs a key of its own', () => {
    const keys = new Set([
      completionCacheKey(judgement),
      completionCacheKey({ ...judgement, topLogprobs: 5 }),
      completionCacheKey({ ...judgement, topLogprobs: 3 }),
    ]);
    expect(keys.size).toBe(3);
  });

  it('keys each sample index apart, the first with the key of a single call', () => {
    expect(completionCacheKey({ ...judgement, sampleIndex: 0 })).toBe(completionCacheKey(judgement));
    const keys = new Set(
      [0, 1, 2, 3].map((sampleIndex) => completionCacheKey({ ...judgement, sampleIndex })),
    );
    expect(keys.size).toBe(4);
  });
});

describe('endpointOrigin', () => {
  it('keeps scheme, host, port and path, never credentials, query or fragment', () => {
    expect(endpointOrigin('https://user:sk-secret@proxy.example:8443/v1/?key=sk-x#f')).toBe(
      'https://proxy.example:8443/v1',
    );
    expect(endpointOrigin('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
  });
});

import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type OpenAiWireServer,
  startOpenAiWireServer,
  type WireReply,
} from '../testing/openai-wire-server.js';
import { type ChatCompleteOptions, ChatCompletionError } from './chat-client.js';
import { completionCacheFolder, completionCacheKey } from './completion-cache.js';
import { createChatClient } from './create-chat-client.js';

const API_KEY = 'sk-test-choice-0123456789';
const request: ChatCompleteOptions = {
  model: 'gpt-test',
  messages: [{ role: 'user', content: 'Is the sky blue? Answer yes or no only.' }],
  temperature: 0,
  maxTokens: 10,
};

const body = (choices: unknown): WireReply => ({
  json: {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test',
    ...(choices === undefined ? {} : { choices }),
    usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 },
  },
});
const yes = body([{ index: 0, message: { role: 'assistant', content: 'yes' }, finish_reason: 'stop' }]);

describe('replies without a choice', () => {
  let server: OpenAiWireServer | undefined;
  let cacheDir: string;

  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lme-choice-cache-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('fails a reply with empty choices, caches nothing, and asks the server again next time', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (_request, index) => (index === 0 ? body([]) : yes),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir, maxRetries: 0 });
    const failure = await client.complete(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatCompletionError);
    expect((failure as Error).message).toBe(
      'Chat completion for model "gpt-test" returned no choice (empty "choices"); nothing was cached.',
    );
    expect(await readdir(cacheDir)).toEqual([]);
    const second = await client.complete(request);
    expect(second).toMatchObject({ text: 'yes', cached: false });
    expect(server.requests).toHaveLength(2);
  });

  it('fails a 200 reply whose body has no choices list, naming the model', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => body(undefined) });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir, maxRetries: 0 });
    const failure = await client.complete(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatCompletionError);
    expect((failure as Error).message).toMatch(
      /^Chat completion for model "gpt-test" returned a body that could not be read/,
    );
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('does not replay an empty cache entry left by an older version as the answer ""', async () => {
    const key = completionCacheKey(request);
    await mkdir(join(completionCacheFolder(cacheDir), key.slice(0, 2)), { recursive: true });
    await writeFile(
      join(completionCacheFolder(cacheDir), key.slice(0, 2), `${key}.json`),
      JSON.stringify({
        v: 1,
        model: 'gpt-test',
        texts: [],
        usage: { promptTokens: 5, completionTokens: 0 },
        createdAt: '',
      }),
    );
    server = await startOpenAiWireServer({ '/chat/completions': () => yes });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir, maxRetries: 0 });
    await expect(client.complete(request)).rejects.toThrow(/returned no choice/);
  });
});

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type OpenAiWireServer,
  startOpenAiWireServer,
  type WireReply,
} from '../testing/openai-wire-server.js';
import { type ChatCompleteOptions, ChatCompletionError } from './chat-client.js';
import { createChatClient } from './create-chat-client.js';

const API_KEY = 'sk-test-SECRET-key-0123456789abcdef';

function completion(
  content: string | string[],
  usage = { prompt_tokens: 11, completion_tokens: 3 },
): WireReply {
  const contents = Array.isArray(content) ? content : [content];
  return {
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: contents.map((text, index) => ({
        index,
        message: { role: 'assistant', content: text },
        finish_reason: 'stop',
      })),
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

const request: ChatCompleteOptions = {
  model: 'gpt-test',
  messages: [{ role: 'user', content: 'Is the sky blue? Answer yes or no only.' }],
  temperature: 0,
  maxTokens: 10,
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('createChatClient', () => {
  let server: OpenAiWireServer | undefined;
  let cacheDir: string;

  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lme-chat-cache-'));
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(cacheDir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it('sends the model, messages and output parameters and returns text, usage and latency', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion(' Yes. ') });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY });
    const result = await client.complete({ ...request, n: 1 });
    expect(result.text).toBe(' Yes. ');
    expect(result.texts).toEqual([' Yes. ']);
    expect(result.usage).toEqual({ promptTokens: 11, completionTokens: 3 });
    expect(result.cached).toBe(false);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests[0]?.body).toEqual({
      model: 'gpt-test',
      messages: request.messages,
      temperature: 0,
      max_tokens: 10,
      n: 1,
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(client.id).toMatch(/^openai-chat:127\.0\.0\.1:\d+\/v1$/);
  });

  it('returns every choice when n > 1', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion(['yes', 'no', 'yes']) });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY });
    const result = await client.complete({ ...request, n: 3 });
    expect(result.texts).toEqual(['yes', 'no', 'yes']);
    expect(result.text).toBe('yes');
  });

  it('asks for the top logprobs only when topLogprobs is given, and returns them as a marked text', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (incoming) => {
        const reply = completion('Yes');
        if ((incoming.body as { logprobs?: boolean }).logprobs) {
          const top = [
            { token: 'Yes', logprob: -0.1, bytes: null },
            { token: ' no', logprob: -2.5, bytes: null },
            // A server quoting the key in a token: redacted like every text of a reply.
            { token: API_KEY, logprob: -9, bytes: null },
          ];
          const json = reply.json as { choices: Record<string, unknown>[] };
          json.choices[0]!.logprobs = {
            content: [{ token: 'Yes', logprob: -0.1, bytes: null, top_logprobs: top }],
          };
        }
        return reply;
      },
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir });
    const plain = await client.complete(request);
    expect(plain.texts).toEqual(['Yes']);
    expect(server.requests[0]?.body).not.toHaveProperty('logprobs');
    expect(server.requests[0]?.body).not.toHaveProperty('top_logprobs');

    const withLogprobs = await client.complete({ ...request, topLogprobs: 5 });
    expect(withLogprobs.cached).toBe(false);
    expect(server.requests[1]?.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
    expect(withLogprobs.text).toBe('Yes');
    expect(withLogprobs.texts).toEqual(['Yes', 'lme-logprobs:{"Yes":-0.1," no":-2.5,"[redacted]":-9}']);

    // Cached under its own key, logprobs included; the request without them keeps its entry.
    expect(await client.complete({ ...request, topLogprobs: 5 })).toMatchObject({
      cached: true,
      texts: withLogprobs.texts,
    });
    expect(await client.complete(request)).toMatchObject({ cached: true, texts: ['Yes'] });
    expect(server.requests).toHaveLength(2);
    for (const file of await filesUnder(cacheDir))
      expect(await readFile(file, 'utf8')).not.toContain('SECRET');
  });

  it('waits out a 429 with retry-after and then succeeds', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (_request, index) =>
        index === 0
          ? {
              status: 429,
              headers: { 'retry-after': '0' },
              json: { error: { message: 'Rate limit reached' } },
            }
          : completion('yes'),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 2 });
    const result = await client.complete(request);
    expect(result.text).toBe('yes');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a burst of 500s with the client backoff and then succeeds', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (_request, index) =>
        index < 3 ? { status: 500, json: { error: { message: 'internal error' } } } : completion('no'),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 3 });
    const result = await client.complete(request);
    expect(result.text).toBe('no');
    expect(server.requests).toHaveLength(4);
  });

  it('gives up after maxRetries with one sentence naming the model and the HTTP status', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({
        status: 503,
        headers: { 'retry-after': '0' },
        json: { error: { message: 'The server is overloaded.' } },
      }),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 1 });
    const failure = await client.complete(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatCompletionError);
    expect((failure as ChatCompletionError).status).toBe(503);
    expect((failure as Error).message).toBe(
      'Chat completion for model "gpt-test" failed with HTTP 503 after 2 attempts: The server is overloaded.',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 404 and names the model', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({
        status: 404,
        json: { error: { message: 'The model `gpt-test` does not exist or you do not have access to it.' } },
      }),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 3 });
    await expect(client.complete(request)).rejects.toThrow(
      'Chat completion for model "gpt-test" failed with HTTP 404: The model `gpt-test` does not exist or you do not have access to it.',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('reports a timeout clearly when the server is slower than timeoutMs', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ ...completion('late'), delayMs: 3000 }),
    });
    const client = createChatClient({
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      maxRetries: 0,
      timeoutMs: 200,
    });
    // The reply comes after 3 s: a failure of kind timeout means the client stopped waiting first.
    const failure = await client.complete(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatCompletionError);
    expect((failure as ChatCompletionError).kind).toBe('timeout');
    expect((failure as Error).message).toBe(
      'Chat completion for model "gpt-test" timed out after 200 ms (1 attempt).',
    );
  });

  it('serves a second identical call from the disk cache without any HTTP request', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion('yes') });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir });
    const first = await client.complete(request);
    const second = await client.complete(request);
    expect(server.requests).toHaveLength(1);
    expect(first.cached).toBe(false);
    expect(second).toMatchObject({ text: 'yes', texts: ['yes'], usage: first.usage, cached: true });

    // A new client (another process) on the same directory hits too, even without a key.
    vi.stubEnv('OPENAI_API_KEY', undefined);
    const fresh = createChatClient({ baseURL: server.baseUrl, cacheDir });
    expect((await fresh.complete(request)).cached).toBe(true);
    expect(server.requests).toHaveLength(1);

    const files = await filesUnder(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/[/\\]([0-9a-f]{2})[/\\]\1[0-9a-f]{62}\.json$/);
    const entry = JSON.parse(await readFile(files[0]!, 'utf8'));
    expect(entry).toMatchObject({ v: 1, model: 'gpt-test', texts: ['yes'] });
    expect(JSON.stringify(entry)).not.toContain('sky');
  });

  it('keys the cache on output-affecting parameters only', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion('yes') });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir, maxRetries: 1 });
    await client.complete(request);
    await client.complete({ ...request, temperature: 0.7 });
    await client.complete({ ...request, maxTokens: 11 });
    await client.complete({ ...request, model: 'gpt-other' });
    await client.complete({ ...request, messages: [{ role: 'user', content: 'Something else' }] });
    expect(server.requests).toHaveLength(5);

    // Retries, timeout and an explicit n: 1 do not change the key.
    const other = createChatClient({
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      cacheDir,
      maxRetries: 5,
      timeoutMs: 999,
    });
    expect((await other.complete({ ...request, n: 1 })).cached).toBe(true);
    expect(server.requests).toHaveLength(5);
  });

  it('still answers when the cache cannot be written, and reports a warning', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion('yes') });
    const blocker = join(cacheDir, 'not-a-directory');
    await writeFile(blocker, 'x');
    const warnings: string[] = [];
    const client = createChatClient({
      baseURL: server.baseUrl,
      apiKey: API_KEY,
      cacheDir: blocker,
      onWarning: (message) => warnings.push(message),
    });
    expect((await client.complete(request)).text).toBe('yes');
    expect((await client.complete({ ...request, maxTokens: 11 })).text).toBe('yes');
    // Once, naming the folder, however many entries fail.
    expect(warnings).toEqual([
      `The LLM cache folder ${join(blocker, 'llm')} cannot be used (ENOTDIR), so answers are not cached and a later run pays for them again: make it a folder lme can write, point --cache-dir at another folder, or run with --no-cache.`,
    ]);
  });

  it('treats an unreadable cache entry as a miss', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion('yes') });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir });
    await client.complete(request);
    const [file] = await filesUnder(cacheDir);
    await writeFile(file!, '{"v":1,"texts":');
    expect((await client.complete(request)).cached).toBe(false);
    expect(server.requests).toHaveLength(2);
  });

  it('does not cache failures', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (_request, index) =>
        index === 0 ? { status: 400, json: { error: { message: 'bad request' } } } : completion('yes'),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir });
    await expect(client.complete(request)).rejects.toThrow('HTTP 400');
    expect((await client.complete(request)).text).toBe('yes');
    expect(server.requests).toHaveLength(2);
  });

  it('sends two concurrent identical requests once (single-flight)', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ ...completion('yes'), delayMs: 150 }),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY });
    const [first, second] = await Promise.all([client.complete(request), client.complete(request)]);
    expect(server.requests).toHaveLength(1);
    expect(first.text).toBe('yes');
    expect(second.text).toBe('yes');
    expect([first.cached, second.cached].sort()).toEqual([false, true]);
  });

  it('lets one caller abort without cancelling the shared request for the other', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ ...completion('yes'), delayMs: 200 }),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY });
    const controller = new AbortController();
    const aborted = client.complete({ ...request, signal: controller.signal });
    const kept = client.complete(request);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect((await kept).text).toBe('yes');
    expect(server.requests).toHaveLength(1);
  });

  it('rejects at once when the signal aborts mid-request', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ ...completion('yes'), delayMs: 2000 }),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir });
    const controller = new AbortController();
    const pending = client.complete({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await filesUnder(cacheDir)).toHaveLength(0);
  });

  it('never puts the API key in error messages or cache files', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': (_request, index) =>
        index === 0
          ? {
              status: 401,
              json: { error: { message: `Incorrect API key provided: ${API_KEY}. Find your key.` } },
            }
          : completion(`echo ${API_KEY.slice(0, 6)}`),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: API_KEY, cacheDir });
    const failure = (await client.complete(request).catch((error: unknown) => error)) as Error;
    expect(failure.message).toContain('HTTP 401');
    expect(failure.message).toContain('gpt-test');
    expect(failure.message).not.toContain(API_KEY);
    expect(failure.message).not.toContain('SECRET');
    expect(JSON.stringify(failure)).not.toContain('SECRET');
    expect(String(failure.stack)).not.toContain('SECRET');
    expect(failure.cause).toBeUndefined();

    await client.complete(request);
    const files = await filesUnder(cacheDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(await readFile(file, 'utf8')).not.toContain('SECRET');
  });

  it('fails clearly when there is no API key and the cache cannot answer', async () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    server = await startOpenAiWireServer({ '/chat/completions': () => completion('yes') });
    const client = createChatClient({ baseURL: server.baseUrl });
    await expect(client.complete(request)).rejects.toThrow(
      /No API key to call model "gpt-test".*OPENAI_API_KEY/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('takes its key and endpoint from options only, never from the environment', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => completion('yes') });
    vi.stubEnv('OPENAI_API_KEY', API_KEY);
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    await expect(createChatClient({ baseURL: server.baseUrl }).complete(request)).rejects.toThrow(
      /No API key to call model "gpt-test"/,
    );
    const defaulted = createChatClient({ apiKey: API_KEY });
    expect(defaulted.id).toBe('openai-chat:api.openai.com/v1');
    expect(server.requests).toHaveLength(0);
  });

  it('keeps the key, and any start of it, out of errors and reply texts', async () => {
    const key = 'lmeKEY-chat-9f83jd02kd93kdlsa';
    server = await startOpenAiWireServer({
      '/chat/completions': (incoming, index) =>
        index === 0
          ? { status: 400, json: { error: { message: `bad key ${key.slice(0, 10)}…` } } }
          : completion(`you sent ${incoming.headers['authorization']}`),
    });
    const client = createChatClient({ baseURL: server.baseUrl, apiKey: key, maxRetries: 0, cacheDir });
    const failure = (await client.complete(request).catch((error: unknown) => error)) as Error;
    expect(failure.message).toContain('HTTP 400');
    expect(failure.message).not.toContain(key.slice(0, 8));
    const reply = await client.complete(request);
    expect(reply.text).toBe('you sent Bearer [redacted]');
    for (const file of await filesUnder(cacheDir))
      expect(await readFile(file, 'utf8')).not.toContain(key.slice(0, 8));
  });

  it('names an unreachable endpoint', async () => {
    server = await startOpenAiWireServer({});
    const baseURL = server.baseUrl;
    await server.close();
    server = undefined;
    const client = createChatClient({ baseURL, apiKey: API_KEY, maxRetries: 0 });
    await expect(client.complete(request)).rejects.toThrow(
      /^Chat completion for model "gpt-test" could not reach 127\.0\.0\.1:\d+\/v1 \(1 attempt\)/,
    );
  });
});

import { type OpenAiWireServer, startOpenAiWireServer } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../config/parse-run-config.js';
import { createConfiguredEmbedder } from './configured-embedder.js';

let server: OpenAiWireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const embeddings = (input: string[]) => ({
  json: {
    object: 'list',
    data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, 2] })),
  },
});

describe('createConfiguredEmbedder', () => {
  it('sends the OpenAI embedder to --base-url with the key from the environment', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (request) => embeddings((request.body as { input: string[] }).input),
    });
    const config = parseRunConfig({ embedder: 'openai:test-embed', baseUrl: server.baseUrl, cache: false });
    const embedder = createConfiguredEmbedder(config, { OPENAI_API_KEY: 'embed-key-0123456789' });
    expect(await embedder.embedDocuments({ texts: ['a', 'b'] })).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer embed-key-0123456789');
  });

  it('holds the OpenAI embedder to --timeout and --max-retries', async () => {
    server = await startOpenAiWireServer({
      '/embeddings': (request) => ({
        ...embeddings((request.body as { input: string[] }).input),
        delayMs: 10_000,
      }),
    });
    const config = parseRunConfig({
      embedder: 'openai:test-embed',
      baseUrl: server.baseUrl,
      timeoutMs: 100,
      maxRetries: 0,
      cache: false,
    });
    const embedder = createConfiguredEmbedder(config, { OPENAI_API_KEY: 'embed-key-0123456789' });
    // The server answers after 10 s; the embedder's own default timeout is 60 s.
    await expect(embedder.embedDocuments({ texts: ['a'] })).rejects.toThrow(/timed out/i);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses credentials in OPENAI_BASE_URL, naming it', () => {
    const config = parseRunConfig({ embedder: 'openai:test-embed', cache: false });
    expect(() =>
      createConfiguredEmbedder(config, {
        OPENAI_API_KEY: 'embed-key-0123456789',
        OPENAI_BASE_URL: 'http://user:pw-0123456789@127.0.0.1:1/v1',
      }),
    ).toThrow(/^OPENAI_BASE_URL must not carry credentials/);
  });
});

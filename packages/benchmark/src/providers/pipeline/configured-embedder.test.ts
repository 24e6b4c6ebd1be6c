import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OpenAiWireServer, startOpenAiWireServer } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
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
    const embedder = createConfiguredEmbedder(groupConfig(config), {
      OPENAI_API_KEY: 'embed-key-0123456789',
    });
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
    const embedder = createConfiguredEmbedder(groupConfig(config), {
      OPENAI_API_KEY: 'embed-key-0123456789',
    });
    // The server answers after 10 s; the embedder's own default timeout is 60 s.
    await expect(embedder.embedDocuments({ texts: ['a'] })).rejects.toThrow(/timed out/i);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses credentials in OPENAI_BASE_URL, naming it', () => {
    const config = parseRunConfig({ embedder: 'openai:test-embed', cache: false });
    expect(() =>
      createConfiguredEmbedder(groupConfig(config), {
        OPENAI_API_KEY: 'embed-key-0123456789',
        OPENAI_BASE_URL: 'http://user:pw-0123456789@127.0.0.1:1/v1',
      }),
    ).toThrow(/^OPENAI_BASE_URL must not carry credentials/);
  });

  it('joins embedders named with +, each cached under its own name', async () => {
    // Each model answers with its own vector, so the joined one shows where each half came from.
    server = await startOpenAiWireServer({
      '/embeddings': (request) => {
        const body = request.body as { input: string[]; model: string };
        return {
          json: {
            object: 'list',
            data: body.input.map((_, index) => ({
              object: 'embedding',
              index,
              embedding: body.model === 'first' ? [3, 4] : [0, 0, 2],
            })),
          },
        };
      },
    });
    const cacheDir = await mkdtemp(join(tmpdir(), 'lme-joined-'));
    try {
      const config = parseRunConfig({
        embedder: 'openai:first+openai:second',
        baseUrl: server.baseUrl,
        cacheDir,
      });
      const environment = { OPENAI_API_KEY: 'embed-key-0123456789' };
      const embedder = createConfiguredEmbedder(groupConfig(config), environment);
      expect(embedder.id).toBe('openai:first+openai:second');
      const [vector] = await embedder.embedDocuments({ texts: ['a'] });
      const half = Math.SQRT1_2;
      expect(Array.from(vector!)).toEqual([0.6 * half, 0.8 * half, 0, 0, half].map(Math.fround));
      await embedder.close?.();
      expect(server.requests).toHaveLength(2);
      // A later run finds both parts in the cache, and the first part alone too.
      const again = createConfiguredEmbedder(groupConfig(config), environment);
      expect(Array.from((await again.embedDocuments({ texts: ['a'] }))[0]!)).toEqual(Array.from(vector!));
      expect(again.stats?.()).toMatchObject({ hits: 2, misses: 0 });
      await again.close?.();
      const first = createConfiguredEmbedder(
        groupConfig({ ...config, embedder: 'openai:first' }),
        environment,
      );
      await first.embedDocuments({ texts: ['a', 'b'] });
      expect(first.stats?.()).toMatchObject({ hits: 1, misses: 1 });
      await first.close?.();
      expect(server.requests).toHaveLength(3);
      // A dry run counts a text as cached when every part has it: "b" only the first has.
      const planned = createConfiguredEmbedder(groupConfig(config), environment);
      expect(await planned.countCached?.({ texts: ['a', 'b', 'c'] })).toBe(1);
      await planned.close?.();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

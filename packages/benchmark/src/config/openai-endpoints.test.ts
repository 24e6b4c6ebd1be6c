import { describe, expect, it } from 'vitest';
import { resolveOpenAiEndpoint } from './openai-endpoints.js';
import { parseRunConfig } from './run-sections.js';

const environment = {
  OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
  OPENAI_API_KEY: 'openai-key-0123456789',
  LME_READER_API_KEY: 'reader-key-0123456789',
};

describe('resolveOpenAiEndpoint', () => {
  it('takes the role flag, else --base-url, else OPENAI_BASE_URL; the role key, else OPENAI_API_KEY', () => {
    const config = parseRunConfig({
      readerBaseUrl: 'http://127.0.0.1:2/v1',
      timeoutMs: 1234,
      maxRetries: 2,
    });
    expect(resolveOpenAiEndpoint(config, 'reader', environment)).toEqual({
      baseURL: 'http://127.0.0.1:2/v1',
      apiKey: 'reader-key-0123456789',
      maxRetries: 2,
      timeoutMs: 1234,
    });
    expect(resolveOpenAiEndpoint(config, 'judge', environment)).toMatchObject({
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'openai-key-0123456789',
    });
    const withBase = parseRunConfig({ baseUrl: 'http://127.0.0.1:3/v1' });
    expect(resolveOpenAiEndpoint(withBase, 'pipeline', environment).baseURL).toBe('http://127.0.0.1:3/v1');
    expect(resolveOpenAiEndpoint(parseRunConfig({}), 'pipeline', {})).toEqual({
      maxRetries: 6,
      timeoutMs: 180_000,
    });
  });

  it('refuses credentials or a query in OPENAI_BASE_URL, naming it', () => {
    const config = parseRunConfig({});
    expect(() =>
      resolveOpenAiEndpoint(config, 'reader', {
        OPENAI_BASE_URL: 'http://alice:pw-0123456789@127.0.0.1:1/v1',
      }),
    ).toThrow(/^OPENAI_BASE_URL must not carry credentials/);
    expect(() =>
      resolveOpenAiEndpoint(config, 'pipeline', { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1?key=k' }),
    ).toThrow(/^OPENAI_BASE_URL must be a base URL without a query string/);
  });

  it('refuses a query in --base-url, in the config and here, naming it', () => {
    const url = 'http://127.0.0.1:1/v1?api_key=0123456789';
    expect(() => parseRunConfig({ baseUrl: url })).toThrow(
      /baseUrl: must be a base URL without a query string/,
    );
    const config = { ...parseRunConfig({}), baseUrl: url };
    expect(() => resolveOpenAiEndpoint(config, 'judge', {})).toThrow(/^--base-url must be a base URL/);
  });
});

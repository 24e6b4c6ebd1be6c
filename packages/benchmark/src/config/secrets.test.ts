import { afterEach, describe, expect, it } from 'vitest';
import {
  addSecret,
  checkEndpointUrl,
  collectedSecrets,
  collectSecrets,
  forgetSecrets,
  redact,
} from './secrets.js';

afterEach(() => forgetSecrets());

describe('secrets registry', () => {
  it('collects the key variables and the credentials and query values of URL variables', () => {
    collectSecrets({
      OPENAI_API_KEY: 'openai-key-0123456789',
      LME_READER_API_KEY: 'reader-key-0123456789',
      LME_JUDGE_API_KEY: 'judge-key-0123456789',
      QDRANT_API_KEY: 'qdrant-key-0123456789',
      OPENAI_BASE_URL: 'http://alice:url-password-0123@127.0.0.1:9/v1?api_key=url-query-0123456',
      QDRANT_URL: 'http://127.0.0.1:6333',
      UNRELATED: 'not-a-secret-0123456789',
      ZEP_API_KEY: 'zep-key-0123456789',
    });
    expect([...collectedSecrets()].sort()).toEqual(
      [
        'judge-key-0123456789',
        'openai-key-0123456789',
        'qdrant-key-0123456789',
        'reader-key-0123456789',
        'url-password-0123',
        'url-query-0123456',
        'zep-key-0123456789',
      ].sort(),
    );
    expect(redact('a openai-key-0123456789 b url-query-0123456 c not-a-secret-0123456789')).toBe(
      'a [redacted] b [redacted] c not-a-secret-0123456789',
    );
  });

  it('redacts a header value, its bare token, and any start of 8 characters or more', () => {
    addSecret('Bearer tok-canary-31337abcdef');
    expect(redact('storage failed for tok-canary-31337abcdef')).toBe('storage failed for [redacted]');
    expect(redact('got Bearer tok-canary-31337abcdef')).toBe('got [redacted]');
    expect(redact('bad key tok-cana…')).toBe('bad key [redacted]…');
  });

  it('ignores values too short to be keys', () => {
    addSecret('none');
    expect(collectedSecrets()).toEqual([]);
  });
});

describe('checkEndpointUrl', () => {
  it('accepts a plain base URL', () => {
    expect(checkEndpointUrl('http://127.0.0.1:8787/v1', '--base-url')).toBe('http://127.0.0.1:8787/v1');
  });

  it('refuses credentials in one sentence naming the source, without quoting them', () => {
    const attempt = () => checkEndpointUrl('https://alice:hunter2-secret@example.com/v1', 'OPENAI_BASE_URL');
    expect(attempt).toThrow(
      'OPENAI_BASE_URL must not carry credentials (user:password@ in the URL would be saved with the results); put the key in the environment instead.',
    );
    expect(collectedSecrets()).toContain('hunter2-secret');
  });

  it('refuses a query string or fragment, and a non-http scheme', () => {
    expect(() => checkEndpointUrl('https://example.com/v1?api-version=1', '--reader-base-url')).toThrow(
      /^--reader-base-url must be a base URL without a query string or fragment/,
    );
    expect(() => checkEndpointUrl('https://example.com/v1#x', 'QDRANT_URL')).toThrow(
      /^QDRANT_URL must be a base URL/,
    );
    expect(() => checkEndpointUrl('ftp://example.com', '--provider-url')).toThrow(
      '--provider-url must be an http:// or https:// URL (got ftp:).',
    );
    expect(() => checkEndpointUrl('not a url', '--judge-base-url')).toThrow(/^--judge-base-url is not a URL/);
  });
});

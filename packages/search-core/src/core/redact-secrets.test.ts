import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretValues, secretNeedles } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('removes a whole value and the token part of a header value', () => {
    const secrets = ['Bearer tok3n-abcdef-0123'];
    expect(redactSecrets('got Bearer tok3n-abcdef-0123 here', secrets)).toBe('got [redacted] here');
    expect(redactSecrets('storage failed for tok3n-abcdef-0123.', secrets)).toBe(
      'storage failed for [redacted].',
    );
  });

  it('removes a truncated start of a key whatever its shape, down to 8 characters', () => {
    const secrets = ['lmeKEY9f83jd02kd93kdlsa'];
    expect(redactSecrets('Incorrect key provided: lmeKEY9f83jd…', secrets)).toBe(
      'Incorrect key provided: [redacted]…',
    );
    expect(redactSecrets('key lmeKEY9f…', secrets)).toBe('key [redacted]…');
    // Seven characters are not enough to be sure.
    expect(redactSecrets('key lmeKEY9…', secrets)).toBe('key lmeKEY9…');
  });

  it('removes anything shaped like an OpenAI key, and leaves short placeholder values alone', () => {
    expect(redactSecrets('key sk-abc***xyz rejected', [])).toBe('key sk-[redacted] rejected');
    expect(secretNeedles('none')).toEqual([]);
    expect(redactSecrets('none of them', ['none'])).toBe('none of them');
    // Free text keeps what merely looks like a key.
    expect(redactSecretValues('the sk-tool flag', ['abcdefgh-key'])).toBe('the sk-tool flag');
  });

  it('removes every occurrence, longest secret first', () => {
    const secrets = ['abcdefgh', 'abcdefgh-longer-secret'];
    expect(redactSecrets('x abcdefgh-longer-secret y abcdefgh z', secrets)).toBe(
      'x [redacted] y [redacted] z',
    );
  });
});

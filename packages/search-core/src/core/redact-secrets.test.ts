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

describe('redactSecretValues in the forms a server echoes', () => {
  const key = 'sk-proj-Q7rT9vX2mK4pL8nB3cD6fG1h';
  it.each([
    ['the key itself', `invalid key ${key}`],
    ['without its sk- prefix', 'invalid key proj-Q7rT9vX2mK4pL8nB3cD6fG1h'],
    ['without any prefix', 'invalid key Q7rT9vX2mK4pL8nB3cD6fG1h'],
    ['upper-cased', `invalid key ${key.toUpperCase()}`],
    ['lower-cased without its prefix', 'invalid key q7rt9vx2mk4pl8nb3cd6fg1h'],
    ['split across a line', 'invalid key sk-proj-Q7rT9vX2mK4p\nL8nB3cD6fG1h'],
    ['split across an indented CRLF line', 'invalid key Q7rT9vX2\r\n    mK4pL8nB3cD6fG1h'],
    ['cut to its first characters', 'invalid key Q7RT9VX2…'],
  ])('removes it %s', (_, text) => {
    const redacted = redactSecretValues(text, [key]);
    expect(redacted).toMatch(/^invalid key (sk-proj-|proj-)?\[redacted\]…?$/);
    for (const piece of ['Q7rT9vX2', 'mK4pL8nB', 'cD6fG1h'])
      expect(redacted.toLowerCase()).not.toContain(piece.toLowerCase());
  });

  it('leaves other text alone', () => {
    expect(redactSecretValues('proj-other-text and Q7rT9vX', [key])).toBe('proj-other-text and Q7rT9vX');
  });
});

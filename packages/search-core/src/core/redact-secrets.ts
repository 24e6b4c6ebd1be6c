/** Shortest value treated as a secret, and shortest leading fragment of one that is redacted. */
export const MIN_SECRET_LENGTH = 8;

const REPLACEMENT = '[redacted]';

/**
 * The strings to look for for one secret value: the value itself, each of its whitespace-separated
 * parts (`Bearer abc…` also yields `abc…`), and each of those without its leading prefixes (a
 * server may echo `sk-proj-abc…` as `proj-abc…` or `abc…`: every tail after a `-` or `_`), each at
 * least MIN_SECRET_LENGTH characters long (shorter values, such as a placeholder key `none`, are
 * not secrets and redacting them would garble every message). A tail must look like a key's body,
 * letters and digits mixed, so `reader-key-0123456789` does not redact every `0123456789`.
 */
export function secretNeedles(value: string): string[] {
  const needles = new Set<string>();
  const trimmed = value.trim();
  for (const part of [trimmed, ...trimmed.split(/\s+/)]) {
    if (part.length < MIN_SECRET_LENGTH) continue;
    needles.add(part);
    for (let at = 0; at < part.length; at++) {
      const tail = part.slice(at + 1);
      if ((part[at] === '-' || part[at] === '_') && isKeyBody(tail)) needles.add(tail);
    }
  }
  return [...needles];
}

function isKeyBody(tail: string): boolean {
  return tail.length >= MIN_SECRET_LENGTH && /[a-z]/i.test(tail) && /\d/.test(tail);
}

/**
 * `text` with every secret removed: each whole value, each token part of a value, and any
 * leading fragment of at least MIN_SECRET_LENGTH characters of one (a server or a truncated
 * message may keep only the start of a key, whatever its shape). Anything shaped like an OpenAI
 * key (`sk-…`) goes too, since servers echo partial keys: for messages, not for free text such as
 * a model's reply (use `redactSecretValues`).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return redactSecretValues(text, secrets).replace(/\bsk-[A-Za-z0-9_*.-]{3,}/g, 'sk-[redacted]');
}

/**
 * `text` without the secrets (values, token parts, tails without a prefix, 8-character starts), in
 * any letter case and with a line break (and the indentation after it) anywhere inside, as a
 * server that upper-cases or wraps a message may echo them; other text is left alone.
 */
export function redactSecretValues(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const pattern = secretPattern(secrets);
  return pattern === undefined ? text : text.replace(pattern, REPLACEMENT);
}

/** A line break inside a secret: `\n` or `\r\n`, then any indentation. */
const LINE_BREAK = '(?:\\r?\\n[ \\t]*)?';

const patterns = new Map<string, RegExp | undefined>();

/**
 * One case-insensitive pattern for every needle of `secrets`, longest first: each needle's first
 * MIN_SECRET_LENGTH characters, then as many more of its characters as follow, a line break
 * allowed between any two.
 */
function secretPattern(secrets: readonly string[]): RegExp | undefined {
  const key = secrets.join('\0');
  if (patterns.has(key)) return patterns.get(key);
  const needles = [...new Set(secrets.flatMap(secretNeedles))].sort(
    (left, right) => right.length - left.length,
  );
  const alternatives = needles.map((needle) => {
    const characters = [...needle].map((character) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    let tail = '';
    for (let index = characters.length - 1; index >= MIN_SECRET_LENGTH; index--) {
      tail = `(?:${LINE_BREAK}${characters[index]}${tail})?`;
    }
    return characters.slice(0, MIN_SECRET_LENGTH).join(LINE_BREAK) + tail;
  });
  const pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), 'gi');
  if (patterns.size > 64) patterns.clear();
  patterns.set(key, pattern);
  return pattern;
}

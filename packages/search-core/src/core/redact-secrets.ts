/** Shortest value treated as a secret, and shortest leading fragment of one that is redacted. */
export const MIN_SECRET_LENGTH = 8;

const REPLACEMENT = '[redacted]';

/**
 * The strings to look for for one secret value: the value itself and each of its
 * whitespace-separated parts (`Bearer abc…` also yields `abc…`), each at least
 * MIN_SECRET_LENGTH characters long (shorter values, such as a placeholder key `none`, are not
 * secrets and redacting them would garble every message).
 */
export function secretNeedles(value: string): string[] {
  const needles = new Set<string>();
  const trimmed = value.trim();
  if (trimmed.length >= MIN_SECRET_LENGTH) needles.add(trimmed);
  for (const part of trimmed.split(/\s+/)) {
    if (part.length >= MIN_SECRET_LENGTH) needles.add(part);
  }
  return [...needles];
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

/** `text` without the secrets (values, token parts, 8-character starts), leaving other text alone. */
export function redactSecretValues(text: string, secrets: readonly string[]): string {
  let redacted = text;
  const needles = secrets.flatMap(secretNeedles).sort((left, right) => right.length - left.length);
  for (const needle of needles) redacted = redactPrefixes(redacted, needle);
  return redacted;
}

/** Replaces every run of text that is a prefix of `needle` at least MIN_SECRET_LENGTH long. */
function redactPrefixes(text: string, needle: string): string {
  const head = needle.slice(0, MIN_SECRET_LENGTH);
  let result = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(head, from);
    if (start < 0) break;
    let end = start + head.length;
    while (end < text.length && end - start < needle.length && text[end] === needle[end - start]) end++;
    result += text.slice(from, start) + REPLACEMENT;
    from = end;
  }
  return result + text.slice(from);
}

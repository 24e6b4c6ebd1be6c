import { redactSecrets, secretNeedles } from '@lme/search-core';
import { terminalSafe } from './terminal-text.js';

/**
 * The secrets of this process, collected at start-up, and the one `redact` every writer of
 * messages and results goes through. A secret is any value of the key variables below, of the
 * variable `--provider-auth-env` names, and the user, password and query values of any endpoint
 * URL (which are refused anyway, see `checkEndpointUrl`). Values under 8 characters (placeholder
 * keys such as `none`) are not treated as secrets.
 */

/** Environment variables that hold keys. */
export const SECRET_VARIABLES = [
  'OPENAI_API_KEY',
  'LME_READER_API_KEY',
  'LME_JUDGE_API_KEY',
  'QDRANT_API_KEY',
] as const;

/** Environment variables that hold endpoint URLs. */
export const URL_VARIABLES = ['OPENAI_BASE_URL', 'QDRANT_URL', 'QDRANT_GRPC_URL'] as const;

const registered = new Set<string>();

/** Adds a value to the secrets of this process (ignored when empty or shorter than 8 characters). */
export function addSecret(value: string | undefined): void {
  if (value === undefined || secretNeedles(value).length === 0) return;
  registered.add(value);
}

/**
 * Variables named as an API key (`MEM0_API_KEY`, `ZEP_API_KEY`, ...): the hosted memory systems'
 * credentials (each provider names its own in `capabilities.apiKeyEnv`) and any other service's,
 * collected without loading every provider first.
 */
const API_KEY_NAME = /_API_KEY$/;

/** Collects every secret the environment holds; call once at start-up (more calls only add). */
export function collectSecrets(environment: Readonly<Record<string, string | undefined>>): void {
  const keyVariables = Object.keys(environment).filter((name) => API_KEY_NAME.test(name));
  for (const name of [...SECRET_VARIABLES, ...keyVariables]) addSecret(environment[name]);
  for (const name of URL_VARIABLES) {
    for (const part of urlSecrets(environment[name])) addSecret(part);
  }
}

/** `text` without any secret of this process, any token part of one, or any 8-character start of one. */
export function redact(text: string): string {
  return registered.size === 0 ? redactSecrets(text, []) : redactSecrets(text, [...registered]);
}

/** The secrets collected so far (for tests). */
export function collectedSecrets(): readonly string[] {
  return [...registered];
}

/** Forgets every collected secret (for tests). */
export function forgetSecrets(): void {
  registered.clear();
}

/**
 * Sends everything this process writes to stdout and stderr through `redact`, and shows control
 * characters from data escaped (terminalSafe): progress lines, tables, warnings and error messages
 * alike, whoever writes them. Idempotent.
 */
export function redactProcessOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const marked = stream as typeof stream & { lmeRedacting?: boolean };
    if (marked.lmeRedacting) continue;
    marked.lmeRedacting = true;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(
        typeof chunk === 'string'
          ? terminalSafe(redact(chunk))
          : chunk instanceof Uint8Array
            ? terminalSafe(redact(Buffer.from(chunk).toString('utf8')))
            : chunk,
        ...rest,
      )) as typeof stream.write;
  }
}

/**
 * Checks one endpoint URL before it is used or stored, naming where it came from (a flag such
 * as `--base-url`, or a variable such as `OPENAI_BASE_URL`): it must be an http(s) URL without
 * credentials (`user:password@`) and without a query string or fragment. A query is refused
 * rather than dropped: it may carry a key (`?api_key=…`), and a URL is saved with the results,
 * so a URL that would be stored differently from how it is used is never accepted. The value
 * itself is never quoted, as it may hold a secret. Returns the URL as given.
 */
export function checkEndpointUrl(value: string, source: string): string {
  for (const part of urlSecrets(value)) addSecret(part);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${source} is not a URL (expected e.g. http://127.0.0.1:8787/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${source} must be an http:// or https:// URL (got ${url.protocol}).`);
  }
  if (url.username || url.password) {
    throw new Error(
      `${source} must not carry credentials (user:password@ in the URL would be saved with the results); put the key in the environment instead.`,
    );
  }
  if (url.search || url.hash) {
    throw new Error(
      `${source} must be a base URL without a query string or fragment (a query can carry a key, and the URL is saved with the results).`,
    );
  }
  return value;
}

/** The user, password and query values of a URL (nothing when it is absent or not a URL). */
function urlSecrets(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const url = new URL(value);
    return [
      decodeURIComponent(url.username),
      decodeURIComponent(url.password),
      ...[...url.searchParams.values()],
    ].filter((part) => part !== '');
  } catch {
    return [];
  }
}

import { z } from 'zod';

/**
 * Who an external memory system is, as a run records it (config.json `provider`, summary.json
 * `provider`, the report header, the HTML report and the default run id): the provider kind, the
 * URL lme spoke to (without credentials, query or fragment) and the name and version the server
 * reported in its health reply (`GET /v1/health`, docs/provider-protocol.md), when it gave them.
 */
export type ProviderIdentity = {
  /** The provider id (`--provider`): `http`. */
  kind: string;
  /** The base URL, with any `user:password@`, query and fragment removed. */
  url: string;
  /** The server's own name (health reply `name`), when it reports one. */
  name?: string;
  /** The server's own version (health reply `version`), when it reports one. */
  version?: string;
  /** A bridge lme runs: what holds it off the network (a network namespace, or the Python guard only). */
  isolation?: string;
};

/** A `ProviderIdentity` as config.json and summary.json store it (read back from any folder). */
export const storedProviderIdentitySchema = z.looseObject({
  kind: z.string(),
  url: z.string(),
  name: z.string().optional(),
  version: z.string().optional(),
  isolation: z.string().optional(),
}) satisfies z.ZodType<ProviderIdentity>;

/** Longest name or version kept from a health reply, in characters. */
export const MAX_IDENTITY_CHARS = 100;

/** `url` without user, password, query and fragment: what may be stored with results. */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return '(not a URL)';
  }
}

/**
 * A name or version a server reported, fit to store and show: a string, control characters
 * removed, whitespace collapsed, at most MAX_IDENTITY_CHARS; undefined when absent or blank.
 */
export function identityText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text.slice(0, MAX_IDENTITY_CHARS);
}

/** `lme serve 0.1.0 at http://127.0.0.1:8787`, or `http://…` alone when it reported no name. */
export function describeProvider(identity: ProviderIdentity): string {
  const named = [identity.name, identity.version].filter((part) => part !== undefined).join(' ');
  return named === '' ? identity.url : `${named} at ${identity.url}`;
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { z } from 'zod';
import { describeIssues } from '../providers/http/protocol.js';

/** An error `lme serve` answers with its status and `{error: {message}}`. */
export type HttpError = Error & { status: number };

export function httpError(status: number, message: string): HttpError {
  return Object.assign(new Error(message), { status });
}

/** The status an error is answered with: its own, else 500. */
export function statusOf(error: unknown): number {
  const status = (error as Partial<HttpError>).status;
  return typeof status === 'number' ? status : 500;
}

/** The body validated by a protocol schema, or a 400 naming the first problems. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw httpError(400, `invalid request: ${describeIssues(parsed.error)}.`);
}

/**
 * `application/json`, with or without parameters such as `; charset=utf-8`. A browser sends a
 * JSON content type cross-origin only after a CORS preflight (never granted here), while
 * `text/plain` goes without asking: requiring JSON keeps pages a user visits from driving the server.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * A check of `Authorization: Bearer <token>`, compared in constant time (over digests, so
 * lengths do not leak either); undefined when no token is set.
 */
export function bearerCheck(
  token: string | undefined,
): ((header: string | undefined) => boolean) | undefined {
  if (token === undefined) return undefined;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(`Bearer ${token}`);
  return (header) => header !== undefined && timingSafeEqual(digest(header), expected);
}

/** A JSON reply; a 401 also carries the `www-authenticate: Bearer` challenge. */
export function reply(outgoing: ServerResponse, status: number, body: unknown): void {
  if (outgoing.headersSent || outgoing.destroyed) return;
  const text = JSON.stringify(body);
  outgoing.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
  });
  outgoing.end(text);
}

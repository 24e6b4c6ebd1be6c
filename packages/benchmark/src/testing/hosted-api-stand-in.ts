import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';

/**
 * A loopback stand-in for a hosted memory API (tests only): routes that follow the service's
 * public reference, an auth check in the service's own scheme, every request recorded with the
 * status it got, and scripted failures (a 429 or a 503 before the real answer) to exercise retries.
 * A request the reference does not allow (unknown route, body of the wrong shape) is answered
 * 400/404 and listed in `rejected`, so a test can assert that none was.
 */

export type StandInRequest = {
  method: string;
  /** The path without its query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
};

export type StandInReply = {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
};

export type StandInRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path pattern; its capture groups are passed to `reply`. */
  path: RegExp;
  /** The request body's shape as the reference documents it (strict: nothing undocumented). */
  body?: z.ZodType;
  /** The query's keys the reference allows. */
  query?: readonly string[];
  reply(request: StandInRequest, captures: string[]): StandInReply;
};

export type HostedStandIn = {
  readonly url: string;
  /** Every request, in order, with the status it was answered with. */
  readonly requests: (StandInRequest & { status: number })[];
  /** Requests answered 400 or 404 because the reference does not allow them, with the reason. */
  readonly rejected: string[];
  /** The next requests get these replies instead of their route's (then routes answer again). */
  failNext(...replies: StandInReply[]): void;
  close(): Promise<void>;
};

export async function startHostedStandIn(options: {
  routes: readonly StandInRoute[];
  /** True when the headers carry the key in the service's scheme. */
  authorized(headers: IncomingHttpHeaders): boolean;
  /** The service's own body for a refused key. */
  unauthorizedBody: unknown;
}): Promise<HostedStandIn> {
  const requests: (StandInRequest & { status: number })[] = [];
  const rejected: string[] = [];
  const scripted: StandInReply[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const request: StandInRequest = {
        method: incoming.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body,
      };
      const reply = answer(request);
      requests.push({ ...request, status: reply.status ?? 200 });
      outgoing.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      outgoing.end(reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
    });
  });

  function answer(request: StandInRequest): StandInReply {
    if (!options.authorized(request.headers)) return { status: 401, body: options.unauthorizedBody };
    const failure = scripted.shift();
    if (failure) return failure;
    for (const route of options.routes) {
      const match = route.method === request.method ? route.path.exec(request.path) : null;
      if (!match) continue;
      const unknownKeys = [...request.query.keys()].filter((key) => !(route.query ?? []).includes(key));
      if (unknownKeys.length > 0) return reject(request, `query keys not in the reference: ${unknownKeys}`);
      if (route.body) {
        const parsed = route.body.safeParse(request.body);
        if (!parsed.success) return reject(request, JSON.stringify(parsed.error.issues.slice(0, 3)));
      } else if (request.body !== undefined) {
        return reject(request, 'a body where the reference has none');
      }
      return route.reply(
        request,
        match.slice(1).map((part) => decodeURIComponent(part)),
      );
    }
    rejected.push(`${request.method} ${request.path}: no such route`);
    return { status: 404, body: { message: 'not found' } };
  }

  function reject(request: StandInRequest, reason: string): StandInReply {
    rejected.push(`${request.method} ${request.path}: ${reason}`);
    return { status: 400, body: { message: reason } };
  }

  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    rejected,
    failNext: (...replies) => scripted.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Two sessions of a haystack as the external provider sends them (opaque ids, every role). */
export const STAND_IN_SESSIONS = [
  {
    session_id: 's-7f3a',
    date: '2023/05/20 (Sat) 02:21',
    turns: [
      { role: 'user' as const, content: 'I adopted a greyhound called Comet last week.', turn_index: 0 },
      { role: 'assistant' as const, content: 'Congratulations on adopting Comet!', turn_index: 1 },
    ],
  },
  {
    session_id: 's-91bc',
    date: '2023/06/02 (Fri) 18:05',
    turns: [
      { role: 'user' as const, content: 'My sister moved to Lisbon.', turn_index: 0 },
      { role: 'assistant' as const, content: 'Lisbon is lovely in June.', turn_index: 1 },
      { role: 'user' as const, content: 'She works at a bakery there.', turn_index: 2 },
    ],
  },
];

/** A key that looks real enough to be redacted (longer than 8 characters). */
export const STAND_IN_KEY = 'sk-standin-4f9a8b7c6d5e4f3a';

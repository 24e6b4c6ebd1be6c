import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Turn = { role: string; content: string; turn_index: number };
type Session = { session_id: string; date: string; turns: Turn[] };
export type LoggedRequest = { path: string; body: Record<string, unknown> };

/**
 * A loopback server speaking the provider protocol for tests, logging every request: it stores the
 * ingested sessions per namespace and ranks them by the words they share with the query (each
 * turn at turn granularity). `ingestUsage` is added to every ingest reply when given; a search whose
 * query `failSearches` picks gets HTTP 500.
 */
export async function startProtocolLogServer(
  options: { ingestUsage?: Record<string, unknown>; failSearches?: (query: string) => boolean } = {},
) {
  let failSearches = options.failSearches;
  const requests: LoggedRequest[] = [];
  const namespaces = new Map<string, Session[]>();
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const overlap = (query: Set<string>, text: string) =>
    [...words(text)].filter((word) => query.has(word)).length;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const path = incoming.url ?? '';
      requests.push({ path, body });
      const namespace = String(body['namespace'] ?? '');
      let reply: unknown = { ok: true };
      if (path === '/v1/health') reply = { status: 'ok', name: 'log-server', version: '1' };
      if (path === '/v1/reset') namespaces.delete(namespace);
      if (path === '/v1/ingest') {
        const stored = namespaces.get(namespace) ?? [];
        stored.push(...(body['sessions'] as Session[]));
        namespaces.set(namespace, stored);
        if (options.ingestUsage) reply = { ok: true, usage: options.ingestUsage };
      }
      if (path === '/v1/search' && failSearches?.(String(body['query']))) {
        outgoing.writeHead(500, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ error: { message: 'search failed' } }));
        return;
      }
      if (path === '/v1/search') {
        const query = words(String(body['query']));
        const stored = namespaces.get(namespace) ?? [];
        const hits =
          body['granularity'] === 'turn'
            ? stored.flatMap((session) =>
                session.turns.map((turn) => ({
                  session_id: session.session_id,
                  turn_index: turn.turn_index,
                  score: overlap(query, turn.content),
                })),
              )
            : stored.map((session) => ({
                session_id: session.session_id,
                score: overlap(query, session.turns.map((turn) => turn.content).join(' ')),
              }));
        hits.sort((left, right) => right.score - left.score);
        reply = { hits: hits.slice(0, Number(body['top_k'])) };
      }
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Stops (or starts) failing searches. */
    failSearches: (fail: ((query: string) => boolean) | undefined) => {
      failSearches = fail;
    },
    /** Namespaces still holding sessions (not reset since their last ingest). */
    live: () => [...namespaces.keys()],
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

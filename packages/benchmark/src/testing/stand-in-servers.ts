import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server and its base URL; `close` stops it. */
export type StandInServer = { readonly url: string; readonly port: number; close(): Promise<void> };

type Route = (body: Record<string, unknown>, request: IncomingMessage) => unknown;

async function serve(routes: Record<string, Route>): Promise<StandInServer> {
  const server: Server = createServer((request, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '').replace(/\?.*$/, '');
      const route = routes[`${request.method} ${path}`];
      if (!route) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no route ${request.method} ${path}` } }));
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const reply = route(text ? (JSON.parse(text) as Record<string, unknown>) : {}, request);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DIMENSIONS = 64;

/** A bag-of-words hash vector, unit length: texts sharing words get a positive cosine. */
export function hashVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    vector[digest[0]! % DIMENSIONS]! += digest[1]! % 2 === 0 ? 1 : -1;
  }
  vector[0]! += 1e-3;
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

function completionText(body: Record<string, unknown>): string {
  const messages = (body.messages as { content?: unknown }[] | undefined) ?? [];
  const prompt = messages.map((message) => String(message.content ?? '')).join('\n');
  if (/"label"|CORRECT/.test(prompt)) return '{"label": "CORRECT"}';
  if (/yes or no/i.test(prompt)) return 'yes';
  return 'The answer is not in the history.';
}

/**
 * An OpenAI-compatible stand-in (base URL `<url>/v1`): chat completions that answer, judge "yes"
 * (LoCoMo's judge: CORRECT) and report usage; embeddings as hash vectors, in floats or base64.
 * `onEmbed` is told every batch of texts it embeds (tests count how often a text was embedded).
 */
export function startOpenAiStandIn(
  options: { onEmbed?: (inputs: readonly string[]) => void } = {},
): Promise<StandInServer> {
  return serve({
    'POST /v1/chat/completions': (body) => {
      const content = completionText(body);
      return {
        id: 'chatcmpl-stand-in',
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
      };
    },
    'POST /v1/embeddings': (body) => {
      const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      options.onEmbed?.(inputs);
      const base64 = body.encoding_format === 'base64';
      return {
        object: 'list',
        model: body.model,
        data: inputs.map((input, index) => {
          const vector = hashVector(input);
          return {
            object: 'embedding',
            index,
            embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
          };
        }),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      };
    },
  });
}

type Turn = { role: string; content: string; turn_index: number };
type Session = { session_id: string; turns: Turn[] };

/**
 * A memory system speaking docs/provider-protocol.md: keeps each namespace's sessions, ranks them
 * (or their turns) by shared words with the query, and answers with its best turn's first words.
 * `health` replaces its `GET /v1/health` reply.
 */
export function startProviderStandIn(
  options: { health?: Record<string, unknown> } = {},
): Promise<StandInServer> {
  const namespaces = new Map<string, Session[]>();
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const overlap = (query: Set<string>, text: string) =>
    [...words(text)].filter((word) => query.has(word)).length;
  return serve({
    'GET /v1/health': () => options.health ?? { status: 'ok', name: 'lme-docs-stand-in' },
    'POST /v1/reset': (body) => {
      namespaces.set(String(body.namespace), []);
      return { ok: true };
    },
    'POST /v1/ingest': (body) => {
      const sessions = namespaces.get(String(body.namespace)) ?? [];
      sessions.push(...((body.sessions as Session[]) ?? []));
      namespaces.set(String(body.namespace), sessions);
      return { ok: true };
    },
    'POST /v1/search': (body) => {
      const query = words(String(body.query));
      const sessions = namespaces.get(String(body.namespace)) ?? [];
      const turns = sessions.flatMap((session) =>
        session.turns.map((turn) => ({ session, turn, score: overlap(query, turn.content) })),
      );
      turns.sort((left, right) => right.score - left.score);
      const topK = Number(body.top_k);
      const hits =
        body.granularity === 'turn'
          ? turns.map(({ session, turn, score }) => ({
              session_id: session.session_id,
              turn_index: turn.turn_index,
              score,
            }))
          : [...new Map(turns.map((hit) => [hit.session.session_id, hit.score])).entries()].map(
              ([sessionId, score]) => ({ session_id: sessionId, score }),
            );
      const best = turns[0]?.turn.content ?? '';
      return { hits: hits.slice(0, topK), answer: best.split(/\s+/).slice(0, 12).join(' ') };
    },
  });
}

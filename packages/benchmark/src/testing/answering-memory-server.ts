import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A memory system of its own, written from docs/provider-protocol.md alone (no lme code): it keeps
 * each namespace's sessions in memory, ranks them by the words they share with the query, and
 * answers the question itself from a script, reporting the context it used, its token usage and
 * its latency. lme's `--answers provider` runs and tests judge these answers.
 */

/** What the server says to one question: an answer (possibly empty), or no `answer` field at all. */
export type ScriptedReply = { answer: string } | { answer: undefined };

/** The script: the reply to a query text; unknown queries get no answer. */
export type AnswerScript = (query: string) => ScriptedReply;

export type AnsweringMemoryServerOptions = {
  script: AnswerScript;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
};

export type AnsweringMemoryServer = {
  /** The base URL for `lme run --provider-url`. */
  url: string;
  /** Searches answered so far. */
  searches(): number;
  close(): Promise<void>;
};

type Turn = { role: string; content: string; turn_index: number };
type Session = { session_id: string; date: string; turns: Turn[] };

/** The record fields the scripted policy reads (a LongMemEval question). */
export type ScriptedQuestion = { question_id: string; question: string; answer: unknown };

/**
 * The acceptance script over a dataset's questions, by their position in the file: positions
 * 0 and 1 of every 4 answer right (the gold answer in a sentence), 2 answers wrong, 3 answers
 * with nothing (an empty string at 3, 11, 19, ...; no `answer` field at 7, 15, 23, ...).
 */
export function scriptByPosition(questions: readonly ScriptedQuestion[]): AnswerScript {
  const replies = new Map<string, ScriptedReply>();
  questions.forEach((question, position) => {
    const kind = scriptedKind(position);
    replies.set(
      question.question,
      kind === 'right'
        ? { answer: `From what you told me: ${String(question.answer)}` }
        : kind === 'wrong'
          ? { answer: 'I believe it was something else entirely.' }
          : kind === 'empty'
            ? { answer: '' }
            : { answer: undefined },
    );
  });
  return (query) => replies.get(query) ?? { answer: undefined };
}

/** What `scriptByPosition` does with the question at `position`. */
export function scriptedKind(position: number): 'right' | 'wrong' | 'empty' | 'missing' {
  const slot = position % 4;
  if (slot < 2) return 'right';
  if (slot === 2) return 'wrong';
  return position % 8 === 3 ? 'empty' : 'missing';
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

function overlap(query: Set<string>, text: string): number {
  let shared = 0;
  for (const word of words(text)) if (query.has(word)) shared++;
  return shared;
}

export async function startAnsweringMemoryServer(
  options: AnsweringMemoryServerOptions,
): Promise<AnsweringMemoryServer> {
  const namespaces = new Map<string, Session[]>();
  let searches = 0;
  const server: Server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing).catch((error: unknown) =>
      send(outgoing, 500, { error: { message: (error as Error).message } }),
    );
  });

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    const path = incoming.url ?? '/';
    if (incoming.method === 'GET' && path === '/v1/health') {
      return send(outgoing, 200, { status: 'ok', name: 'answering-memory', version: '1' });
    }
    const namespace = String(body.namespace ?? '');
    if (path === '/v1/reset') {
      namespaces.set(namespace, []);
      return send(outgoing, 200, { ok: true });
    }
    if (path === '/v1/ingest') {
      const stored = namespaces.get(namespace) ?? [];
      stored.push(...(body.sessions as Session[]));
      namespaces.set(namespace, stored);
      return send(outgoing, 200, { ok: true });
    }
    if (path === '/v1/search') {
      const sessions = namespaces.get(namespace);
      if (!sessions)
        return send(outgoing, 404, { error: { message: `namespace "${namespace}" is unknown.` } });
      searches++;
      const query = String(body.query ?? '');
      const hits = rank(sessions, words(query), body.granularity === 'turn').slice(0, Number(body.top_k));
      const first = sessions.find((session) => session.session_id === hits[0]?.session_id);
      const context = (first?.turns.map((turn) => turn.content).join('\n') ?? '').slice(0, 2000);
      const { answer } = options.script(query);
      const completionTokens = answer === undefined ? 0 : (answer.match(/\S+/g) ?? []).length;
      const usage = { prompt_tokens: Math.ceil(context.length / 4), completion_tokens: completionTokens };
      return send(outgoing, 200, {
        hits,
        ...(answer === undefined ? {} : { answer }),
        context,
        // Every other answer is priced by the system itself; the rest report tokens only.
        usage: {
          ...usage,
          model: 'scripted-memory',
          ...(searches % 2 === 1 ? { cost_usd: (usage.prompt_tokens + usage.completion_tokens) * 1e-6 } : {}),
        },
        latency_ms: 40 + (searches % 5) * 10,
      });
    }
    return send(outgoing, 404, { error: { message: `no route ${incoming.method} ${path}` } });
  }

  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    searches: () => searches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sessions (or turns) by shared words with the query, best first; ties keep ingest order. */
function rank(
  sessions: readonly Session[],
  query: Set<string>,
  turns: boolean,
): { session_id: string; turn_index?: number; score: number }[] {
  const scored = turns
    ? sessions.flatMap((session) =>
        session.turns.map((turn) => ({
          session_id: session.session_id,
          turn_index: turn.turn_index,
          score: overlap(query, turn.content),
        })),
      )
    : sessions.map((session) => ({
        session_id: session.session_id,
        score: overlap(query, session.turns.map((turn) => turn.content).join(' ')),
      }));
  return scored
    .map((hit, order) => ({ hit, order }))
    .sort((left, right) => right.hit.score - left.hit.score || left.order - right.order)
    .map(({ hit }) => hit);
}

function send(outgoing: ServerResponse, status: number, body: unknown): void {
  if (outgoing.headersSent) return;
  outgoing.writeHead(status, { 'content-type': 'application/json' });
  outgoing.end(JSON.stringify(body));
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPipeline } from '../providers/pipeline/configured-pipeline.js';
import type { PipelineSections } from '../providers/pipeline/pipeline-sections.js';
import { createBodyBudget } from './body-budget.js';
import { bearerCheck, httpError, isJsonContentType, reply, statusOf } from './http-exchange.js';
import { createNamespaceStore } from './namespace-store.js';
import { createServeRoutes, type ServeNamespaces } from './serve-routes.js';

export type ServeOptions = {
  /**
   * The pipeline's sections: its retriever and components with their own options, and the
   * retrieval section (the granularity of searches that name none, the roles indexed of what
   * clients send), which the routes read.
   */
  sections: PipelineSections;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Namespaces kept at once; the least recently used is dropped beyond it. Default 256. */
  maxNamespaces?: number;
  /**
   * Estimated memory all namespaces may hold (see `sessionsBytes`); least recently used
   * namespaces are dropped beyond it, and an ingest that would make its own namespace exceed it
   * is refused with 507. Default 1 GiB.
   */
  maxMemoryBytes?: number;
  /**
   * Largest request body accepted (413 beyond). Default 256 MiB, and never more than
   * `maxMemoryBytes`. The bodies of all requests in flight together may hold at most
   * `maxMemoryBytes` too (503 beyond), counted apart from the namespaces.
   */
  maxBodyBytes?: number;
  /** A request whose headers and body have not all arrived by then is answered 408. Default 30 s. */
  requestTimeoutMs?: number;
  /** When set, every request must carry `Authorization: Bearer <authToken>` (else 401). */
  authToken?: string;
};

export type RunningServer = {
  /** e.g. `http://127.0.0.1:8787`: the base URL for `--provider-url`. */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`, default 5 s), then resolves. */
  close(options?: { graceMs?: number }): Promise<void>;
};

/**
 * An lme pipeline behind the HTTP provider protocol (docs/provider-protocol.md): each namespace
 * holds ingested sessions in memory; a search cuts them into documents exactly as `buildCorpus`
 * does for the in-process pipeline, indexes them with the configured retriever (cached until the
 * namespace changes) and returns the top hits. Resolves once listening.
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { sections } = options;
  const pipeline = createPipeline(sections);
  const maxMemoryBytes = options.maxMemoryBytes ?? 1024 * 1024 * 1024;
  const bodies = createBodyBudget({
    maxBytes: maxMemoryBytes,
    maxBodyBytes: Math.min(options.maxBodyBytes ?? 256 * 1024 * 1024, maxMemoryBytes),
  });
  const isAuthorized = bearerCheck(options.authToken);
  const namespaces: ServeNamespaces = createNamespaceStore({
    maxNamespaces: options.maxNamespaces ?? 256,
    maxMemoryBytes,
  });
  const routes = createServeRoutes({
    retrieval: sections.retrieval,
    pipeline,
    namespaces,
    maxMemoryBytes,
  });

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    try {
      const path = new URL(incoming.url ?? '/', 'http://localhost').pathname;
      const route = routes[path];
      if (!route) throw httpError(404, `no route ${path}; see docs/provider-protocol.md.`);
      if (isAuthorized && !isAuthorized(incoming.headers.authorization)) {
        throw httpError(401, 'missing or wrong credentials: send Authorization: Bearer <token>.');
      }
      if (incoming.method !== route.method) {
        throw httpError(405, `${path} takes ${route.method}, not ${incoming.method}.`);
      }
      if (route.method === 'POST' && !isJsonContentType(incoming.headers['content-type'])) {
        throw httpError(
          415,
          `${path} takes a JSON body sent as content-type application/json (got ${incoming.headers['content-type'] ?? 'none'}).`,
        );
      }
      if (route.method === 'GET') {
        reply(outgoing, 200, await route.handle(undefined));
        return;
      }
      const { body, release } = await bodies.readJson(incoming);
      try {
        reply(outgoing, 200, await route.handle(body));
      } finally {
        release();
      }
    } catch (error) {
      // A body refused before it was all read is not waited for: the connection closes after it.
      if (!incoming.complete) outgoing.setHeader('connection', 'close');
      reply(outgoing, statusOf(error), { error: { message: (error as Error).message } });
    }
  }

  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 10_000),
      // How often Node checks those timeouts (default 30 s, so a stalled body was held minutes).
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
    },
    (incoming, outgoing) => {
      void handle(incoming, outgoing);
    },
  );
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    close: ({ graceMs = 5000 } = {}) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          void pipeline.close().then(resolve, resolve);
        });
        server.closeIdleConnections();
      }),
  };
}

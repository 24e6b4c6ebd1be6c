import {
  type OpenAiWireServer,
  startOpenAiWireServer,
  type WireHandler,
  type WireReply,
} from './openai-wire-server.js';

/**
 * A loopback server speaking the `/rerank` wire format (Cohere, Jina, Voyage, TEI, vLLM) for
 * tests: `handler` sees each request (`{model, query, documents, top_n}`) and its index.
 * `baseUrl` ends in `/v1`; the reranker appends `/rerank`.
 */
export function startRerankServer(handler: WireHandler): Promise<OpenAiWireServer> {
  return startOpenAiWireServer({ '/rerank': handler });
}

/** A `/rerank` reply giving document i the score `scores[i]`, best first, as the services do. */
export function rerankReply(scores: readonly number[]): WireReply {
  return {
    json: {
      results: scores
        .map((relevance_score, index) => ({ index, relevance_score }))
        .sort((left, right) => right.relevance_score - left.relevance_score),
      usage: { total_tokens: 42 },
    },
  };
}

/** A `/rerank` handler scoring each document by how many query words it contains. */
export const wordOverlapRerank: WireHandler = (request) => {
  const { query, documents } = request.body as { query: string; documents: string[] };
  const words = new Set(query.toLowerCase().match(/\w+/g) ?? []);
  return rerankReply(
    documents.map(
      (document) => (document.toLowerCase().match(/\w+/g) ?? []).filter((word) => words.has(word)).length,
    ),
  );
};

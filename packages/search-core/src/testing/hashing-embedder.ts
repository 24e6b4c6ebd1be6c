import type { Embedder } from '../embedding/embedder.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';

/**
 * A deterministic stand-in for a text embedder in tests: a hashed bag of stems, L2-normalised
 * (identical texts get identical vectors, shared words give a positive cosine). It records every
 * text it embeds, and can wait before each call to stand in for a slow model.
 */
export function createHashingEmbedder(
  options: { dimensions?: number; delayMs?: number } = {},
): Embedder & { documents: string[]; queries: string[] } {
  const dimensions = options.dimensions ?? 64;
  const wait = () =>
    options.delayMs ? new Promise((resolve) => setTimeout(resolve, options.delayMs)) : Promise.resolve();
  const vectorOf = (text: string) => {
    const vector = new Float32Array(dimensions);
    for (const term of wordsTokenizer.tokenize(text)) {
      let hash = 0;
      for (const char of term) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
      vector[hash % dimensions]! += 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  const embedder = {
    id: `test:hashing-${dimensions}`,
    dimensions,
    documents: [] as string[],
    queries: [] as string[],
    async embedDocuments({ texts }: { texts: readonly string[] }) {
      await wait();
      embedder.documents.push(...texts);
      return texts.map(vectorOf);
    },
    async embedQuery({ text }: { text: string }) {
      await wait();
      embedder.queries.push(text);
      return vectorOf(text);
    },
  };
  return embedder;
}

import {
  cacheIdentityOf,
  type EmbedDocumentsOptions,
  type Embedder,
  type EmbedQueryOptions,
} from './embedder.js';

/**
 * One embedder from several: each text's vector is its parts' unit vectors side by side, each
 * scaled by 1/sqrt(n), so the result is a unit vector and its cosine with another is the mean of
 * the parts' cosines. Its id is the parts' ids joined by `+`.
 */
export function concatEmbedders(parts: readonly Embedder[]): Embedder {
  if (parts.length < 2) throw new Error('concatEmbedders needs at least two embedders.');
  const scale = 1 / Math.sqrt(parts.length);
  const join = (vectors: readonly Float32Array[]): Float32Array => {
    const out = new Float32Array(vectors.reduce((sum, vector) => sum + vector.length, 0));
    let offset = 0;
    for (const vector of vectors) {
      for (let index = 0; index < vector.length; index++) out[offset + index] = vector[index]! * scale;
      offset += vector.length;
    }
    return out;
  };
  return {
    id: parts.map((part) => part.id).join('+'),
    cacheIdentity: parts.map(cacheIdentityOf).join('+'),
    // hf embedders learn their size when the model loads, so this is read each time.
    get dimensions() {
      return parts.reduce((sum, part) => sum + part.dimensions, 0);
    },
    async embedDocuments(options: EmbedDocumentsOptions): Promise<Float32Array[]> {
      const done = parts.map(() => 0);
      const perPart = await Promise.all(
        parts.map((part, index) =>
          part.embedDocuments({
            texts: options.texts,
            signal: options.signal,
            onProgress: options.onProgress
              ? (count) => {
                  done[index] = count;
                  options.onProgress?.(Math.min(...done));
                }
              : undefined,
          }),
        ),
      );
      return options.texts.map((_, text) => join(perPart.map((vectors) => vectors[text]!)));
    },
    async embedQuery(options: EmbedQueryOptions): Promise<Float32Array> {
      return join(await Promise.all(parts.map((part) => part.embedQuery(options))));
    },
    truncated: () => parts.reduce((sum, part) => sum + (part.truncated?.() ?? 0), 0),
    async close() {
      await Promise.all(parts.map((part) => part.close?.()));
    },
  };
}

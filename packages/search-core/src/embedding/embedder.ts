/** A text embedder. Vectors are L2-normalised so cosine similarity is a dot product. */
export type Embedder = {
  /** Stable identifier, part of every cache key: `local:use-lite`, `openai:text-embedding-3-small`. */
  readonly id: string;
  /**
   * What the disk cache keys vectors by, when the id alone does not pin the model: an ONNX
   * embedder's id plus its file checksum, pooling, token limit and prefixes. Default: the id.
   */
  readonly cacheIdentity?: string;
  readonly dimensions: number;
  embedDocuments(options: EmbedDocumentsOptions): Promise<Float32Array[]>;
  embedQuery(options: EmbedQueryOptions): Promise<Float32Array>;
  /** Texts cut at the model's token limit so far (in-process models that truncate, e.g. ONNX). */
  truncated?(): number;
  /** Releases workers or sockets; safe to call twice. */
  close?(): Promise<void>;
};

/** What the disk cache keys an embedder's vectors by (its folder): `cacheIdentity`, else its id. */
export const cacheIdentityOf = (embedder: Pick<Embedder, 'id' | 'cacheIdentity'>): string =>
  embedder.cacheIdentity ?? embedder.id;

export type EmbedDocumentsOptions = {
  texts: readonly string[];
  signal?: AbortSignal;
  /** Called as texts finish, with the number done so far in this call. */
  onProgress?: (done: number) => void;
};

export type EmbedQueryOptions = {
  text: string;
  signal?: AbortSignal;
};

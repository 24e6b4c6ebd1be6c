/** Payload values a vector index can store and filter on. */
export type PayloadValue = string | number | boolean;
export type Payload = Readonly<Record<string, PayloadValue>>;

export type VectorRecord = {
  id: string;
  vector: Float32Array;
  payload: Payload;
};

/** Exact-match filter: every key must equal the value, or be one of the listed values. */
export type PayloadFilter = Readonly<Record<string, PayloadValue | readonly PayloadValue[]>>;

export type VectorSearchHit = {
  id: string;
  /** Cosine similarity. */
  score: number;
  payload: Payload;
};

export type VectorIndex = {
  readonly id: string;
  upsert(options: { records: readonly VectorRecord[]; signal?: AbortSignal }): Promise<void>;
  search(options: {
    vector: Float32Array;
    limit: number;
    filter?: PayloadFilter;
    /** The payload keys the caller reads: a remote store may send only these. Unset: all. */
    payloadKeys?: readonly string[];
    signal?: AbortSignal;
  }): Promise<VectorSearchHit[]>;
  /**
   * Removes the points with these ids and/or matching the filter. `wait: false` resolves once the
   * store has accepted the delete, before it is applied: a search may still see the points for a
   * moment, while the store's later writes come after it (a namespace's cleanup, which nothing
   * reads again). Default true: the points are gone when it resolves.
   */
  delete(options: {
    ids?: readonly string[];
    filter?: PayloadFilter;
    wait?: boolean;
    signal?: AbortSignal;
  }): Promise<void>;
  /** Drops everything this index created (a Qdrant collection, in-memory arrays). */
  drop(): Promise<void>;
};

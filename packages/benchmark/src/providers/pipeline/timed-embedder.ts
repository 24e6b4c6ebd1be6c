import type { Embedder } from '@lme/search-core';
import {
  type ConfiguredEmbedder,
  createConfiguredEmbedder,
  type EmbedderSections,
} from './configured-embedder.js';

/** Seconds one retriever's embedding calls took: the sum of its calls' durations. */
export type OwnEmbedTime = { seconds: number };

/**
 * The run's embedder (`given`, else the one `sections` select, created on first use), with its time
 * counted two ways: each retriever's own calls (summed: a question's embedding time), and the
 * run's wall time with any call in flight, so calls of concurrent workers that overlap count once
 * and `embedded / seconds()` is the speed a user sees.
 */
export function createTimedEmbedder(
  sections: EmbedderSections,
  environment: NodeJS.ProcessEnv,
  given: ConfiguredEmbedder | undefined,
  /** Milliseconds since some fixed point; injected by tests. */
  now: () => number = () => performance.now(),
): {
  /** The embedder for one retriever; its calls' seconds go to `own`, their wall time to the run's. */
  embedder(own: OwnEmbedTime): Embedder;
  inner(): ConfiguredEmbedder | undefined;
  /** Wall seconds during which at least one embedding call was in flight. */
  seconds(): number;
} {
  let inner = given;
  let busyMs = 0;
  let inFlight = 0;
  let busySince = 0;
  const timed = async <T>(own: OwnEmbedTime, work: () => Promise<T>) => {
    const started = now();
    if (inFlight++ === 0) busySince = started;
    try {
      return await work();
    } finally {
      const ended = now();
      own.seconds += (ended - started) / 1000;
      if (--inFlight === 0) busyMs += ended - busySince;
    }
  };
  return {
    embedder(own) {
      inner ??= createConfiguredEmbedder(sections, environment);
      const embedder = inner;
      return {
        id: embedder.id,
        get dimensions() {
          return embedder.dimensions;
        },
        embedDocuments: (options) => timed(own, () => embedder.embedDocuments(options)),
        embedQuery: (options) => timed(own, () => embedder.embedQuery(options)),
      };
    },
    inner: () => inner,
    seconds: () => (busyMs + (inFlight > 0 ? now() - busySince : 0)) / 1000,
  };
}

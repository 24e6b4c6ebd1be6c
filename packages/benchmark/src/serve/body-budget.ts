import type { IncomingMessage } from 'node:http';
import { describeNonUtf8, firstNonUtf8Byte } from '../config/strict-utf8.js';
import { checkJsonBounds } from '../dataset/parse-dataset-json.js';
import { httpError } from './http-exchange.js';
import { megabytes } from './namespace-store.js';

/**
 * The bytes of request bodies `lme serve` holds at once, over all requests: each body reserves
 * its bytes as they arrive (never its Content-Length up front, which costs a client nothing to
 * declare) and gives them back when its request is answered. A body larger than `maxBodyBytes`
 * is refused with 413 (on its Content-Length when it declares one, before a byte is read); a
 * body that would take the total past `maxBytes` with 503 (try again later), each in one
 * sentence, before the bytes are held.
 */
export type BodyBudget = {
  /** The body parsed as JSON, its bytes reserved until `release` is called. */
  readJson(incoming: IncomingMessage): Promise<{ body: unknown; release(): void }>;
  readonly heldBytes: number;
};

export function createBodyBudget(options: { maxBytes: number; maxBodyBytes: number }): BodyBudget {
  let held = 0;
  const tooLarge = () =>
    httpError(
      413,
      `request body over ${options.maxBodyBytes} bytes (${megabytes(options.maxBodyBytes)} MB), the most one request may send; send fewer sessions per ingest.`,
    );
  const busy = () =>
    httpError(
      503,
      `request bodies in flight already hold ${megabytes(held)} MB of the ${megabytes(options.maxBytes)} MB this server allows; retry when they are answered.`,
    );
  return {
    get heldBytes() {
      return held;
    },
    async readJson(incoming) {
      let reserved = 0;
      const release = () => {
        held -= reserved;
        reserved = 0;
      };
      const reserve = (bytes: number) => {
        if (reserved + bytes > options.maxBodyBytes) throw tooLarge();
        if (held + bytes > options.maxBytes) throw busy();
        held += bytes;
        reserved += bytes;
      };
      try {
        // A declared length over the per-body bound is refused before a byte is read; under it,
        // it reserves nothing: bytes are counted as they arrive, so idle connections that
        // declare much and send nothing hold nothing of the budget others need.
        const declared = Number(incoming.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBodyBytes) throw tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of incoming as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > reserved) reserve(size - reserved);
          chunks.push(chunk);
        }
        const bytes = Buffer.concat(chunks);
        // Never decoded to U+FFFD: a byte that is not UTF-8 is refused, named by its offset.
        const bad = firstNonUtf8Byte(bytes);
        if (bad)
          throw httpError(
            400,
            `request body is not UTF-8 (${describeNonUtf8(bad)}); send JSON as UTF-8 text.`,
          );
        try {
          // The dataset loaders' bounds: no string over 64 MB, no nesting past 64 levels.
          checkJsonBounds(bytes, 'request body');
        } catch (error) {
          throw httpError(400, `${(error as Error).message}.`);
        }
        const text = bytes.toString('utf8');
        try {
          return { body: JSON.parse(text), release };
        } catch (error) {
          throw httpError(400, `request body is not valid JSON (${(error as Error).message}).`);
        }
      } catch (error) {
        release();
        // The rest of a refused body is not read: the connection closes after the answer.
        incoming.resume();
        throw error;
      }
    },
  };
}

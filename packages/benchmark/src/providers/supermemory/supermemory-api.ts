import { z } from 'zod';

/**
 * The parts of supermemory's replies the adapter reads, as its OpenAPI document (3.0.0,
 * `.speakeasy/out.openapi.yaml` of supermemoryai/sdk-ts at e8ad71ab) describes them. Other fields
 * are allowed and ignored.
 */

const metadata = z.record(z.string(), z.unknown()).nullable().optional();

/** `GET /v3/settings`: read only to check the key. */
export const settingsReply = z.object({}).loose();

/** `POST /v3/documents`. */
export const addDocumentReply = z.object({ id: z.string().min(1), status: z.string() }).loose();

/** `GET /v3/documents/{id}`. */
export const documentReply = z
  .object({
    id: z.string(),
    status: z.enum([
      'unknown',
      'queued',
      'extracting',
      'chunking',
      'embedding',
      'indexing',
      'done',
      'failed',
    ]),
  })
  .loose();

/** `DELETE /v3/container-tags/{containerTag}`. */
export const deleteTagReply = z
  .object({ success: z.boolean().optional(), deletedDocumentsCount: z.number().optional() })
  .loose()
  .optional();

/** `POST /v4/search` with `include.documents`. */
export const searchReply = z
  .object({
    results: z.array(
      z
        .object({
          id: z.string(),
          metadata,
          similarity: z.number(),
          documents: z.array(z.object({ id: z.string(), metadata }).loose()).optional(),
        })
        .loose(),
    ),
  })
  .loose();

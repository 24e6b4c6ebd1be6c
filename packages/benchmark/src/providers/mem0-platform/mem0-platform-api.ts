import { z } from 'zod';

/**
 * The parts of Mem0 Platform's replies the adapter reads, as its OpenAPI document (docs/openapi.json
 * of mem0ai/mem0 at 8d5b7865) describes them. Other fields are allowed and ignored.
 */

/** `GET /v1/ping/`. */
export const pingReply = z.object({ status: z.string().optional() }).loose();

/** `POST /v3/memories/add/`: queued (`event_id`, `PENDING`) unless `infer` is false. */
export const addReply = z
  .object({
    event_id: z.string().min(1).optional(),
    status: z.string().optional(),
  })
  .loose();

/** `GET /v1/event/{event_id}/`. */
export const eventReply = z
  .object({
    status: z.enum(['PENDING', 'RUNNING', 'FAILED', 'SUCCEEDED']),
    error: z.string().nullable().optional(),
  })
  .loose();

/** `DELETE /v1/memories/?user_id=…`: queued for background deletion. */
export const deleteReply = z
  .object({ message: z.string().optional(), event_id: z.string().min(1).optional() })
  .loose()
  .optional();

/** `POST /v3/memories/search/`. */
export const searchReply = z
  .object({
    results: z.array(
      z
        .object({
          id: z.string(),
          memory: z.string().optional(),
          score: z.number().optional(),
          metadata: z.record(z.string(), z.unknown()).nullable().optional(),
        })
        .loose(),
    ),
  })
  .loose();

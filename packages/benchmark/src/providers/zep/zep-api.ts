import { z } from 'zod';

/**
 * The parts of Zep's replies the adapter reads, as the v3 Python SDK (getzep/zep-python at
 * a80dee37, zep-cloud 3.20.0, generated from Zep's API definition) types them: `Episode`,
 * `EntityEdge`, `GraphSearchResults`, `ProjectInfoResponse`, `User`. Other fields are allowed.
 */

/** `GET /projects/info`. */
export const projectInfoReply = z
  .object({ project: z.object({ name: z.string().optional() }).loose().optional() })
  .loose();

/** `GET /users/{userId}` and `POST /users`. */
export const userReply = z.object({ user_id: z.string().optional() }).loose();

/** `DELETE /users/{userId}`. */
export const successReply = z.object({ message: z.string().optional() }).loose().optional();

/** An episode: `POST /graph` replies with the one it added; `GET /graph/episodes/{uuid}`. */
export const episodeReply = z
  .object({
    uuid: z.string().min(1),
    processed: z.boolean().nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    score: z.number().nullable().optional(),
  })
  .loose();

const edge = z
  .object({
    uuid: z.string(),
    fact: z.string().optional(),
    episodes: z.array(z.string()).nullable().optional(),
    score: z.number().nullable().optional(),
  })
  .loose();

/** `POST /graph/search`. */
export const searchReply = z
  .object({
    edges: z.array(edge).nullable().optional(),
    episodes: z.array(episodeReply).nullable().optional(),
  })
  .loose();

import { z } from 'zod';

/**
 * The parts of Letta's replies the adapter reads, as its official TypeScript SDK (letta-ai/letta-node
 * at 8b1e9cea, 1.12.0, generated from Letta's OpenAPI spec) types them: `HealthResponse`,
 * `AgentState`, `Passage`, `PassageSearchResponse`. Other fields are allowed and ignored.
 */

/** `GET /v1/health/`. */
export const healthReply = z.object({ status: z.string(), version: z.string().optional() }).loose();

const agent = z.object({ id: z.string().min(1), name: z.string().optional() }).loose();

/** `POST /v1/agents/`. */
export const agentReply = agent;

/** `GET /v1/agents/?name=…`: the agents of that name. */
export const agentListReply = z.array(agent);

/** `DELETE /v1/agents/{agent_id}`. */
export const deleteReply = z.unknown();

/** `POST /v1/agents/{agent_id}/archival-memory`: the passages stored (the text may be split). */
export const insertReply = z.array(
  z.object({ text: z.string(), tags: z.array(z.string()).nullable().optional() }).loose(),
);

/** `GET /v1/agents/{agent_id}/archival-memory/search`. */
export const searchReply = z
  .object({
    results: z.array(
      z
        .object({
          id: z.string().optional(),
          content: z.string(),
          timestamp: z.string().optional(),
          tags: z.array(z.string()).nullable().optional(),
        })
        .loose(),
    ),
    count: z.number().optional(),
  })
  .loose();

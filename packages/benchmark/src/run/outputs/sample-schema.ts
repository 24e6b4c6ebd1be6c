import { z } from 'zod';
import type { Sample } from '../../results/sample.js';

/**
 * One line of samples.jsonl as lme writes it (results/sample.ts), checked field by field on read:
 * a results folder may come from anyone, and every command that reads one (report, compare, gate,
 * merge, explain, resume) shows or computes from these values. Fields that folders written by
 * older versions lack get the value those versions meant; fields this version does not know are
 * kept as they are (and never shown).
 */
const count = z.number().int().min(0);
/** A score lme wrote: a number, or null where the number was NaN (JSON has no NaN), read back as NaN. */
const storedScore = z
  .number()
  .nullable()
  .transform((value) => value ?? Number.NaN);
const routeTrace = z.looseObject({ score: storedScore, rank: count });
const routes = z.record(z.string(), routeTrace);

export const storedHitSchema = z.looseObject({
  id: z.string(),
  session_id: z.string(),
  rank: z.number().int().min(1),
  score: storedScore,
  routes: routes.default({}),
});

const judgeItemSchema = z.looseObject({
  name: z.string(),
  score: z.number().nullable(),
  max: z.number().optional(),
  reason: z.string().optional(),
});

const judgeSchema = z.looseObject({
  label: z.boolean().nullable().optional(),
  score: z.number().min(0).max(1).nullable().optional(),
  items: z.array(judgeItemSchema).optional(),
  error: z.string().optional(),
  votes: z.looseObject({ yes: count, no: count, unparsed: count }).optional(),
});

const usageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  cost_usd: z.number().nullable(),
  cached: z.boolean(),
  model: z.string().optional(),
  /** HTTP requests sent for the role's answer, retries included (absent in older folders). */
  requests: count.optional(),
});

const latencySchema = z.looseObject({
  index: z.number(),
  retrieve: z.number(),
  ingest: z.number().min(0).optional(),
  answer: z.number().optional(),
  reader: z.number().optional(),
  judge: z.number().optional(),
});

export const sampleSchema = z.looseObject({
  question_id: z.string(),
  position: count.optional(),
  question_type: z.string(),
  abstention: z.boolean(),
  no_target: z.boolean().default(false),
  gold_sessions: z.array(z.string()).default([]),
  gold_absent: z.array(z.string()).optional(),
  hits: z.array(storedHitSchema).default([]),
  metrics: z.record(z.string(), z.number()),
  hypothesis: z.string().nullable().default(null),
  answer_source: z.enum(['reader', 'provider']).optional(),
  answer_context: z.string().optional(),
  judge: judgeSchema.nullable().default(null),
  usage: z.record(z.string(), usageSchema).default({}),
  latency_ms: latencySchema.default({ index: 0, retrieve: 0 }),
  ingest_shared: z.literal(true).optional(),
  error: z.string().nullable(),
  errata: z
    .looseObject({
      errata: z.string(),
      kinds: z.array(z.string()),
      fields: z.array(z.string()),
      excluded: z.boolean(),
    })
    .optional(),
});

// The schema describes the stored type (a sample that lacks `position` is an old folder's).
export type CheckedSample = z.output<typeof sampleSchema>;
const _sameShape = (sample: CheckedSample): Omit<Sample, 'position'> => sample;
void _sameShape;

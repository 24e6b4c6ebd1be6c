import { z } from 'zod';

/**
 * One line of explain.jsonl (`--explain`; providers/pipeline/explain-trace.ts) as far as `lme
 * explain` and the HTML report read it: the question and its gold items with their ranks, route
 * traces and miss causes. Other fields (timings, stage traces) are kept as written and not shown.
 */
const routeTrace = z.looseObject({ score: z.number().nullable(), rank: z.number().int().min(0) });

const goldItemSchema = z.looseObject({
  id: z.string(),
  session_id: z.string().optional(),
  rank: z.number().int().min(1).nullable(),
  score: z.number().nullable().optional(),
  base_rank: z.number().int().min(1).nullable().optional(),
  routes: z.record(z.string(), routeTrace).optional(),
  cause: z.looseObject({ kind: z.string(), text: z.string() }).optional(),
});

export const explainLineSchema = z.looseObject({
  question_id: z.string(),
  question: z.string().optional(),
  question_date: z.string().optional(),
  answer: z.string().optional(),
  gold: z
    .looseObject({
      k: z.number().int().min(0).optional(),
      sessions: z.array(goldItemSchema).optional(),
      turns: z.array(goldItemSchema).optional(),
    })
    .optional(),
});

export type ExplainLine = z.output<typeof explainLineSchema>;

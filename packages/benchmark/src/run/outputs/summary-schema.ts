import { z } from 'zod';
import { storedProviderIdentitySchema } from '../../results/provider-identity.js';

/**
 * summary.json as lme writes it (results/summary.ts), checked field by field on read by every
 * command that reads one (report, compare, gate, merge). Rows written before lme recorded `counts`
 * get the row's `n` for each metric; a benchmark's own block (its `aggregate`) is kept as it is,
 * and checked by whoever reads it.
 */
const count = z.number().int().min(0);

const metricMeansSchema = z
  .looseObject({
    n: count.default(0),
    metrics: z.record(z.string(), z.number()).default({}),
    counts: z.record(z.string(), count).optional(),
    errors: count.optional(),
    no_target: count.optional(),
    ci95: z.record(z.string(), z.looseObject({ low: z.number(), high: z.number() })).optional(),
  })
  .transform((means) => ({
    ...means,
    counts: means.counts ?? Object.fromEntries(Object.keys(means.metrics).map((name) => [name, means.n])),
  }));

const ceilingSchema = z.looseObject({ value: z.number(), wrong_labels: count, n: count });

export const summarySchema = z.looseObject({
  run_id: z.string(),
  dataset: z.string(),
  convention: z.string(),
  exclusion: z.enum(['A', 'B']),
  label: z.string().optional(),
  provider: storedProviderIdentitySchema.optional(),
  n: count,
  errors: count.default(0),
  partial: z.looseObject({ reason: z.string() }).optional(),
  mixed: z.looseObject({ setups: count, changes: z.array(z.string()) }).optional(),
  first_error: z.looseObject({ question_id: z.string(), message: z.string() }).optional(),
  ingest: z
    .looseObject({
      ingests: count,
      shared: count,
      ms_p50: z.number().min(0),
      ms_p95: z.number().min(0),
      ms_total: z.number().min(0),
      search_ms_p50: z.number().min(0),
      search_ms_p95: z.number().min(0),
      usage: z
        .looseObject({
          ingests: count,
          prompt_tokens: count,
          completion_tokens: count,
          cost_usd: z.number().min(0).nullable(),
        })
        .optional(),
    })
    .optional(),
  metrics: z.looseObject({
    overall: metricMeansSchema,
    by_type: z.record(z.string(), metricMeansSchema).default({}),
    abstention: metricMeansSchema.default({ n: 0, metrics: {}, counts: {} }),
  }),
  qa: z
    .looseObject({
      judge: z.string(),
      judge_model: z.string(),
      answer_source: z.enum(['reader', 'provider']).optional(),
      judge_samples: count.optional(),
      judge_temperature: z.number().optional(),
      reader_model: z.string().optional(),
      reader_prompt: z.string().optional(),
    })
    .optional(),
  errata: z
    .looseObject({
      errata: z.string(),
      applied: z.boolean(),
      file_sha256: z.string(),
      entries: count,
      questions_touched: count,
      excluded: count,
      by_kind: z.record(z.string(), count),
      ceiling: z.record(z.string(), ceilingSchema).optional(),
    })
    .optional(),
});

import { z } from 'zod';
import { runConfigSchema } from '../../config/run-config.js';
import { storedProviderIdentitySchema } from '../../results/provider-identity.js';

/**
 * config.json as lme writes it (run/outputs/run-manifest.ts `RunManifest`), checked field by field on read
 * by every command that reads a results folder and by `--resume`. The run config is checked
 * against today's run config schema, every key optional (a folder written before a key existed
 * lacks it) and keys this version does not know kept (an older or newer lme wrote them).
 */
const timestamp = z.iso.datetime();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a hex SHA-256');

export const storedRunConfigSchema = runConfigSchema.partial().loose();

const fingerprintSchema = z.looseObject({
  setup: sha256,
  config: sha256,
  code: sha256.nullable(),
  models: z.record(z.string(), z.looseObject({ model: z.string(), tokenizer: z.string() })),
  dataset: sha256.nullable(),
  rankings: sha256,
});

/** run/outputs/run-setup.ts `RunSetup`: what `--resume` compares. */
const setupSchema = z.looseObject({
  config: sha256,
  settings: z.record(z.string(), z.unknown()),
  code: sha256.nullable(),
  versions: z.record(z.string(), z.string()),
  git_commit: z.string().nullable(),
});

/** What `--resume-mixed` records: each setup the run's questions were made under, in order. */
export const mixedSetupSchema = z.looseObject({
  at: timestamp,
  /** What changed from the setup before, one entry per change (`settings bm25K1 1.5 -> 0.2`). */
  changes: z.array(z.string()),
  setup: setupSchema.partial(),
});

export const manifestSchema = z.looseObject({
  run_id: z.string().min(1),
  config: storedRunConfigSchema,
  provenance: z
    .looseObject({
      argv: z.array(z.string()),
      git: z.looseObject({ commit: z.string().nullable(), dirty: z.boolean().nullable() }),
      versions: z.record(z.string(), z.string()),
      node: z.string(),
      started_at: timestamp,
    })
    .optional(),
  dataset: z
    .looseObject({ path: z.string(), sha256: sha256.nullable(), file_sha256: sha256.optional() })
    .default({ path: '', sha256: null }),
  provider: storedProviderIdentitySchema.optional(),
  resumed: z.array(z.looseObject({ argv: z.array(z.string()), at: timestamp })).optional(),
  provider_stats: z.record(z.string(), z.unknown()).optional(),
  cache: z.looseObject({ answers_from_other_endpoints: z.record(z.string(), z.number()) }).optional(),
  setup: setupSchema.optional(),
  fingerprint: fingerprintSchema.optional(),
  /** Set by `--resume-mixed`: the run's questions were made under more than one setup. */
  mixed: z.array(mixedSetupSchema).optional(),
  finished_at: timestamp.optional(),
  errata: z
    .looseObject({
      name: z.string(),
      version: z.number(),
      path: z.string(),
      file_sha256: z.string(),
      dataset_sha256: z.string(),
      entries: z.number().int().min(0),
      checksum_override: z.boolean().optional(),
    })
    .optional(),
  partial: z.looseObject({ reason: z.string(), stopped_at: timestamp }).optional(),
});

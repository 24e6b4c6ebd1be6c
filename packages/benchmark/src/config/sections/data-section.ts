import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';

/** The data a run reads and the questions it asks: the dataset, its gold convention and errata, and the selection (limit, ids, types, split, shard). */
export const DATA_SHAPE = {
  dataset: z.string().min(1).default('sample'),
  dataDir: z.string().min(1).default('datasets'),
  convention: z.enum(['official', 'evidence']).default('official'),
  /** Which questions the official means skip: A = `_abs`; B = also those with no user-side gold. */
  exclusion: z.enum(['A', 'B']).default('A'),
  duplicateSessions: z.enum(['keep', 'first']).default('keep'),
  /**
   * Known label errors to correct (configs/errata/<name>.json, or a path to such a file): corrected
   * values replace the published ones, excluded questions leave every mean. Unset: official labels.
   */
  errata: z.string().min(1).optional(),
  /** Apply `errata` to a dataset file whose checksum is not the errata's (the entries that fit). */
  errataAnyChecksum: z.boolean().optional(),
  /**
   * At most this many questions (a whole number from 1), or this share of them (0 < limit < 1),
   * stratified by type with `seed`.
   */
  limit: z
    .number()
    .refine((value) => (value > 0 && value < 1) || (Number.isInteger(value) && value >= 1), {
      message: 'a count (a whole number from 1) or a share between 0 and 1 such as 0.1',
    })
    .optional(),
  seed: z.number().int().min(0).default(42),
  questionIds: z.array(z.string().min(1)).min(1).optional(),
  questionTypes: z.array(z.string().min(1)).min(1).optional(),
  /** Dev/test protocol (run/selection/dev-test-split.ts): only the dev or the test questions; unset or `all`: every one. */
  split: z.enum(['dev', 'test', 'all']).optional(),
  /** `i/n`: the questions whose dataset position % n is i - 1. */
  shard: z
    .string()
    .regex(/^\d+\/\d+$/, 'expected i/n such as 1/4')
    .optional(),
};

/** The flags of the data section (config/run-options.ts lists every section's). */
export const DATA_OPTIONS = [
  {
    flags: '-d, --dataset <name|path>',
    key: 'dataset',
    group: 'start',
    help: 'a dataset name a benchmark knows (oracle, s, m, sample), or the path of a dataset file (.json/.json.gz) or folder',
  },
  {
    flags: '--data-dir <dir>',
    key: 'dataDir',
    group: 'data',
    help: 'folder holding the downloaded dataset files',
    env: 'LME_DATA_DIR',
  },
  {
    flags: '--convention <name>',
    key: 'convention',
    group: 'data',
    help: 'gold definition: official scripts or answer_session_ids/has_answer (a benchmark without official gold refuses official)',
    defaultHelp: "the dataset's benchmark's",
  },
  {
    flags: '--exclusion <A|B>',
    key: 'exclusion',
    group: 'data',
    help: 'official means: A skips _abs; B also skips questions with no user-side gold',
  },
  {
    flags: '--duplicate-sessions <policy>',
    key: 'duplicateSessions',
    group: 'data',
    help: 'a session id twice in one haystack: keep both (official) or the first',
  },
  {
    flags: '--errata <name>',
    key: 'errata',
    group: 'data',
    help: 'correct known label errors (configs/errata/<name>.json, one per dataset file) or exclude the questions; default: official labels',
    defaultHelp: 'none',
  },
  {
    flags: '--errata-any-checksum',
    key: 'errataAnyChecksum',
    group: 'data',
    help: 'apply --errata to a dataset file whose SHA-256 the errata do not name (a warning instead of an error)',
  },
  {
    flags: '--limit <n>',
    key: 'limit',
    group: 'start',
    help: 'at most n questions (a count), or a share of them (0 < n < 1, e.g. 0.1), stratified by question type and seeded by --seed',
  },
  { flags: '--seed <n>', key: 'seed', group: 'data', help: 'seed of the --limit subset' },
  {
    flags: '--question-ids <ids>',
    key: 'questionIds',
    group: 'data',
    help: 'only these question ids, comma-separated',
  },
  {
    flags: '--question-types <types>',
    key: 'questionTypes',
    group: 'data',
    help: 'only these question types, comma-separated',
  },
  {
    flags: '--split <part>',
    key: 'split',
    group: 'data',
    help: 'dev, test or all: the seeded 30% dev / 70% test split by question id, stratified by type (settings are chosen on dev)',
    defaultHelp: 'all',
  },
  {
    flags: '--shard <i/n>',
    key: 'shard',
    group: 'data',
    help: 'only shard i of n (questions whose dataset position % n is i-1); merge with lme merge',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type DataSection = z.output<z.ZodObject<typeof DATA_SHAPE>>;

import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';

/** How a run is managed and where it writes: the preset it started from, the cache, concurrency, the run folder and its label. */
export const RUN_SHAPE = {
  /** The preset the config started from (recorded for provenance). */
  preset: z.string().min(1).optional(),
  /**
   * Plugin files or packages whose components joined the registries (`--plugin`, loaded by
   * cli/main.ts before the config is built); their content hashes are in the code hash.
   */
  plugins: z.array(z.string().min(1)).optional(),
  /**
   * Provenance (never set by hand): the keys the dataset's benchmark decided as the config layer
   * below presets, environment and flags (`Benchmark.defaults`), and which benchmark.
   */
  benchmarkDefaults: z
    .object({ benchmark: z.string().min(1), keys: z.array(z.string().min(1)) })
    .strict()
    .optional(),
  /** Write explain.jsonl: per question the routes, stages, decisions and timings. */
  explain: z.boolean().default(false),
  cache: z.boolean().default(true),
  cacheDir: z.string().min(1).default('.lme-cache'),
  /** Hits stored per question in samples.jsonl. */
  saveHits: z.number().int().min(0).default(50),
  concurrency: z.number().int().min(1).max(256).default(1),
  out: z.string().min(1).default('results'),
  runId: z
    .string()
    .regex(/^[\w.-]+$/, '--run-id must be a folder name of letters, digits, dot, dash and underscore')
    .refine((value) => value !== '.' && value !== '..', '--run-id must not be "." or ".."')
    .optional(),
  /** Replace the outputs of an existing run folder of the same id (`--overwrite`). */
  overwrite: z.boolean().optional(),
  /** Free text recorded in config.json and put in a `label` column of the CSVs (`--label`). */
  label: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\n\r]*$/, '--label must be one line')
    .optional(),
};

/** The flags of the run section (config/run-options.ts lists every section's). */
export const RUN_SECTION_OPTIONS = [
  {
    flags: '--plugin <file|package>',
    key: 'plugins',
    group: 'run',
    help: 'load retrievers, stages, embedder or reranker families, memory systems or benchmarks from a plugin outside lme (repeatable; docs/plugins.md)',
    repeatable: true,
  },
  {
    flags: '--preset <name|path>',
    key: 'preset',
    group: 'start',
    help: "start from a preset: a name (`lme presets` lists them, `lme presets <name>` shows one's settings) or the path of a preset file or a run's config.json; the environment and flags override it",
  },
  {
    flags: '--explain',
    key: 'explain',
    group: 'output',
    help: 'write explain.jsonl: routes, stage decisions and timings per question',
  },
  {
    flags: '--no-cache',
    key: 'cache',
    group: 'run',
    help: 'do not read or write the embedding and completion caches',
  },
  { flags: '--cache-dir <dir>', key: 'cacheDir', group: 'run', help: 'cache folder', env: 'LME_CACHE_DIR' },
  {
    flags: '--save-hits <n>',
    key: 'saveHits',
    group: 'output',
    help: 'hits stored per question in samples.jsonl',
  },
  { flags: '-j, --concurrency <n>', key: 'concurrency', group: 'run', help: 'questions in flight at once' },
  { flags: '-o, --out <dir>', key: 'out', group: 'output', help: 'parent folder of run folders' },
  {
    flags: '--run-id <id>',
    key: 'runId',
    group: 'run',
    help: 'name of the run folder',
    defaultHelp: 'time, dataset, retriever, granularity',
  },
  {
    flags: '--overwrite',
    key: 'overwrite',
    group: 'run',
    help: 'replace the outputs of an existing run folder with the same --run-id',
  },
  {
    flags: '--label <text>',
    key: 'label',
    group: 'run',
    help: 'a name for the run, recorded in config.json and shown in the CSVs, compare and report',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type RunSection = z.output<z.ZodObject<typeof RUN_SHAPE>>;

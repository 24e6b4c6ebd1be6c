import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';
import { ROUTE_SETS, type RouteSetName } from '../../components/retrievers/retriever-descriptor.js';
import {
  listNames,
  RETRIEVER_NAMES,
  retrieversWhere,
} from '../../components/retrievers/retriever-queries.js';
import { RETRIEVERS, type RetrieverName } from '../../components/retrievers/retriever-registry.js';
import { closeNames } from '../close-names.js';

const ROUTE_SET_NAMES = Object.keys(ROUTE_SETS) as [RouteSetName, ...RouteSetName[]];

/** The schema's sentence for a retriever no descriptor has: the close name, then the known ones. */
function unknownRetriever(input: unknown, known: readonly string[]): string {
  const close = typeof input === 'string' ? closeNames(input, known, 1) : [];
  return `Invalid option ${JSON.stringify(input)}${close.length > 0 ? ` (did you mean "${close[0]}"?)` : ''}: expected one of ${known.map((name) => JSON.stringify(name)).join('|')}`;
}

type Descriptors = (typeof RETRIEVERS)[RetrieverName];
/** The boolean keys that named a base retriever before `--retriever` did (`sessionAware`: `--session-aware`). */
export type LegacyRetrieverKey = NonNullable<
  Descriptors['capabilities'] extends infer C ? (C extends { legacyKey?: infer K } ? K : never) : never
>;

/** Each retriever's legacy key with the retriever it names, in registry order. */
export const LEGACY_RETRIEVER_KEYS = Object.values(RETRIEVERS).flatMap((descriptor) =>
  'legacyKey' in descriptor.capabilities && descriptor.capabilities.legacyKey
    ? [
        {
          key: descriptor.capabilities.legacyKey as LegacyRetrieverKey,
          retriever: descriptor.name as RetrieverName,
        },
      ]
    : [],
);

/** Old form of `retriever: <name>` (old presets, config.json, `--session-aware`); mapped, never kept. */
const LEGACY_RETRIEVER_SHAPE = Object.fromEntries(
  LEGACY_RETRIEVER_KEYS.map(({ key }) => [key, z.boolean().optional()]),
) as Record<LegacyRetrieverKey, z.ZodOptional<z.ZodBoolean>>;

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const LEGACY_RETRIEVER_OPTIONS: readonly RunOptionDeclaration[] = LEGACY_RETRIEVER_KEYS.map(
  ({ key, retriever }) => ({
    flags: `--${kebab(key)}`,
    key,
    group: 'retrieval',
    help: `old form of --retriever ${retriever} (with --retriever ${ROUTE_SET_NAMES.join('|')} as --routes)`,
  }),
);

/** The pipeline's retrieval: the base retriever, the documents it indexes and the number it returns. */
export const RETRIEVAL_SHAPE = {
  /** Documents every provider is graded on (the same budget for all); unset: the whole haystack. */
  topK: z.number().int().min(1).optional(),
  /** The base retriever, a key of RETRIEVERS (components/retrievers/retriever-registry.ts); the first is the default. */
  retriever: z
    .enum(RETRIEVER_NAMES, {
      error: (issue) =>
        issue.input === undefined ? undefined : unknownRetriever(issue.input, RETRIEVER_NAMES),
    })
    .default(RETRIEVER_NAMES[0]),
  /** The routes a retriever of configured routes (session-aware, multi-route, multi-source) searches; unset: its default. */
  routes: z.enum(ROUTE_SET_NAMES).optional(),
  tokenizer: z.enum(['official', 'words']).default('words'),
  granularity: z.enum(['session', 'turn']).default('session'),
  indexRoles: z.enum(['user', 'all']).default('user'),
  /**
   * What one indexed chunk is; sets the granularity (`turn` and `round` grade as turns). `round`:
   * a user turn and the assistant reply after it, under the user turn's id. Unset: the granularity's unit.
   */
  chunkUnit: z.enum(['turn', 'round', 'session']).optional(),
  /** A turn's indexed text in a form its benchmark names (`Benchmark.turnForms`); unset: as loaded. */
  turnForm: z.string().min(1).optional(),
  finalTopK: z.number().int().min(1).max(10_000).default(10),
  ...LEGACY_RETRIEVER_SHAPE,
};

const TURN_RANKERS = retrieversWhere(({ capabilities }) => capabilities.ranks === 'turn');
const ROUTE_TAKERS = retrieversWhere(({ capabilities }) => capabilities.routes === 'configured');

/** The flags of the retrieval section (config/run-options.ts lists every section's). */
export const RETRIEVAL_OPTIONS = [
  {
    flags: '--top-k <n>',
    key: 'topK',
    group: 'stages',
    help: 'documents every provider is graded on, the same budget for all',
    defaultHelp: 'the whole haystack',
  },
  {
    flags: '--retriever <name>',
    key: 'retriever',
    group: 'retrieval',
    help: `base retriever of the pipeline: ${RETRIEVER_NAMES.join(', ')}; ${listNames(TURN_RANKERS, 'and')} rank turns, so they index turns whatever --granularity says`,
  },
  {
    flags: '--routes <name>',
    key: 'routes',
    group: 'retrieval',
    help: `routes a ${listNames(ROUTE_TAKERS)} retriever searches: bm25, dense, or hybrid (both, fused)`,
    defaultHelp: 'hybrid',
  },
  {
    flags: '--tokenizer <name>',
    key: 'tokenizer',
    group: 'retrieval',
    help: 'BM25 tokenizer: official = Python split(" "), words = lowercase stemmed words',
  },
  {
    flags: '--granularity <unit>',
    key: 'granularity',
    group: 'retrieval',
    help: 'index whole sessions or single turns',
  },
  {
    flags: '--index-roles <roles>',
    key: 'indexRoles',
    group: 'retrieval',
    help: 'index user turns only (official) or all turns',
  },
  {
    flags: '--chunk-unit <unit>',
    key: 'chunkUnit',
    group: 'retrieval',
    help: 'indexed chunk: turn, round (user turn + reply) or session',
    defaultHelp: '--granularity',
  },
  {
    flags: '--turn-form <name>',
    key: 'turnForm',
    group: 'retrieval',
    help: "write each indexed turn in a form the dataset's benchmark names (docs/data.md lists them)",
    defaultHelp: 'as loaded',
  },
  { flags: '--final-top-k <n>', key: 'finalTopK', group: 'retrieval', help: 'turns returned after merging' },
  ...LEGACY_RETRIEVER_OPTIONS,
] satisfies readonly RunOptionDeclaration[];

export type RetrievalSection = z.output<z.ZodObject<typeof RETRIEVAL_SHAPE>>;

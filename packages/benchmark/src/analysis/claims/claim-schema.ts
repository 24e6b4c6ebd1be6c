import { z } from 'zod';

/** A figure per question type, keyed by the dataset's own type names. */
const figuresByType = z.record(z.string(), z.number().min(0).max(1));

/** One published figure: a metric variant at a cutoff, overall and, where published, per type. */
const publishedFigure = z.strictObject({
  /** A metric variant with its cutoff (`recall_any_all_questions@5`), see metric-variants.ts. */
  metric: z.string(),
  overall: z.number().min(0).max(1),
  by_type: figuresByType.optional(),
});

/**
 * A published claim as data (configs/claims/<id>.json): who claims what, where it was read, on
 * which questions and counting rule, and how lme runs it. The file name is the claim's id.
 */
export const claimSchema = z.strictObject({
  description: z.string().min(1),
  system: z.strictObject({
    name: z.string().min(1),
    /** A release, a commit or "unstated". */
    version: z.string().min(1),
  }),
  source: z.strictObject({
    url: z.string().url(),
    /** Files and lines the figures and the recipe were read from. */
    files: z.array(z.string().min(1)).min(1),
    /** When it was read (YYYY-MM-DD). */
    read: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  }),
  benchmark: z.strictObject({
    /** A benchmark of lme's registry. */
    name: z.string().min(1),
    dataset: z.strictObject({
      /** The published file's name. */
      name: z.string().min(1),
      /** SHA-256 of the file the author used, as published or pinned. */
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** What to pass as --dataset, when lme knows the file by a name. */
      lme_dataset: z.string().optional(),
    }),
  }),
  questions: z.strictObject({
    /** How many questions the published figure counts. */
    count: z.number().int().positive(),
    /** Which questions, and how each counts. */
    rule: z.string().min(1),
  }),
  published: z.array(publishedFigure).min(1),
  /** The official metric of the same run, printed beside (`session.recall_all@5`). */
  official: z.string().min(1),
  recipe: z.strictObject({
    preset: z.string().optional(),
    /** Run config keys, as a preset's `config`. */
    config: z.record(z.string(), z.unknown()),
    /** "exact" when lme runs the author's recipe; else what differs. */
    fidelity: z.string().min(1),
  }),
  /** What running it needs besides the dataset: an environment variable holding a key, a service. */
  needs: z
    .strictObject({
      env: z.array(z.string().regex(/^[A-Z][A-Z0-9_]*$/)).optional(),
      /** The service, in words (what it is, where it runs). */
      service: z.string().optional(),
      /** Run config keys the user must give (a service's address: providerUrl). */
      settings: z.array(z.string()).optional(),
    })
    .optional(),
});

export type ClaimFile = z.infer<typeof claimSchema>;

/** A claim read and checked: its id (the file name) and where it was read from. */
export type Claim = ClaimFile & { id: string; path: string };

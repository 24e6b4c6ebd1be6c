import { z } from 'zod';

/** What an erratum corrects: a gold answer, the evidence, the category, or a duplicated session. */
export const ERRATUM_KINDS = ['gold-answer', 'evidence', 'category', 'duplicate'] as const;
export type ErratumKind = (typeof ERRATUM_KINDS)[number];

/** `exclude`: the question is left out of every mean (its published label cannot be repaired). */
export const EXCLUDE = 'exclude';
const exclude = z.literal(EXCLUDE);
const answerValue = z.union([z.string().min(1), z.number()]);
const ids = z.array(z.string().min(1));

/** Where an erratum comes from and how it was checked: both required, so every entry is traceable. */
const provenance = {
  question_id: z.string().min(1),
  source: z.string().min(10),
  verified: z.string().min(20),
};

/**
 * One affected question. `field` names the record field the published value sits in; `kind`
 * follows from it. `corrected` is the value to use instead, or `exclude`.
 */
export const erratumSchema = z.discriminatedUnion('field', [
  z
    .object({
      ...provenance,
      kind: z.literal('gold-answer'),
      field: z.literal('answer'),
      published: answerValue,
      corrected: z.union([exclude, answerValue]),
    })
    .strict(),
  z
    .object({
      ...provenance,
      kind: z.literal('evidence'),
      /** LongMemEval: the evidence sessions. */
      field: z.literal('answer_session_ids'),
      published: ids,
      corrected: z.union([exclude, ids.min(1)]),
    })
    .strict(),
  z
    .object({
      ...provenance,
      kind: z.literal('evidence'),
      /** LoCoMo: the QA's `evidence` dialog ids (`D<session>:<turn>`). */
      field: z.literal('evidence'),
      published: ids,
      corrected: z.union([
        exclude,
        z.array(z.string().regex(/^D\d+:\d+$/, 'expected D<session>:<turn>')).min(1),
      ]),
    })
    .strict(),
  z
    .object({
      ...provenance,
      kind: z.literal('category'),
      field: z.literal('category'),
      published: z.number().int(),
      /**
       * Only `exclude`: moving a question to another category changes whether it is an abstention
       * question (its id carries `_abs`), which lme keys on the id; a mislabelled one is set aside.
       */
      corrected: exclude,
    })
    .strict(),
  z
    .object({
      ...provenance,
      kind: z.literal('duplicate'),
      /** A session id held more than once by one haystack: keep the copy at `keep`, drop the others. */
      field: z.literal('haystack_session_ids'),
      published: z
        .object({ session_id: z.string().min(1), positions: z.array(z.number().int().min(0)).min(2) })
        .strict(),
      corrected: z.object({ keep: z.number().int().min(0) }).strict(),
    })
    .strict(),
]);

export type Erratum = z.infer<typeof erratumSchema>;

/** An errata file: `configs/errata/<name>.json`. */
export const errataFileSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, 'must be a file name (letters, digits, dot, dash, underscore)'),
    version: z.number().int().min(1),
    dataset: z.string().min(1),
    /** How the checksums below are computed. */
    checksum: z.string().min(1),
    /** The dataset files (SHA-256 of their JSON text) the entries apply to. */
    files: z
      .array(
        z
          .object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a hex SHA-256'), note: z.string() })
          .strict(),
      )
      .min(1),
    entries: z.array(erratumSchema),
    /** Reported problems that were checked and not adopted, with what was found. */
    reviewed: z
      .array(
        z
          .object({ question_id: z.string().min(1), source: z.string().min(1), finding: z.string().min(1) })
          .strict(),
      )
      .default([]),
  })
  .strict()
  .check((context) => {
    const entries = context.value.entries;
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      const key = `${entry.question_id}\0${entry.field}`;
      if (seen.has(key)) {
        context.issues.push({
          code: 'custom',
          input: entry,
          path: ['entries', index],
          message: `question ${entry.question_id} has two entries for field ${entry.field}`,
        });
      }
      seen.add(key);
      if (
        entry.field === 'haystack_session_ids' &&
        !entry.published.positions.includes(entry.corrected.keep)
      ) {
        context.issues.push({
          code: 'custom',
          input: entry,
          path: ['entries', index, 'corrected', 'keep'],
          message: `keeps position ${entry.corrected.keep}, which is not one of the published positions`,
        });
      }
    });
  });

export type ErrataFile = z.infer<typeof errataFileSchema>;

/** Whether an entry leaves its question out of every mean. */
export function excludes(entry: Erratum): boolean {
  return entry.corrected === EXCLUDE;
}

/** Whether an entry says the published answer label is wrong (so a perfect answer is scored wrong). */
export function wrongAnswerLabel(entry: Erratum): boolean {
  return entry.kind === 'gold-answer' || entry.kind === 'category';
}

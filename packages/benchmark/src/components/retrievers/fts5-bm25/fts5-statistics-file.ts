import { readFileSync, statSync } from 'node:fs';
import type { Fts5Statistics } from '@lme/search-core';
import { z } from 'zod';

/** The largest statistics file read (all of S's is about 1.5 MB). */
const MAX_BYTES = 64 * 2 ** 20;

const fileSchema = z.strictObject({
  rows: z.number().int().positive(),
  tokens: z.number().int().nonnegative(),
  documentFrequency: z.record(z.string(), z.number().int().positive()),
});

const loaded = new Map<string, Fts5Statistics>();

/**
 * The FTS5 table statistics a statistics option names (JSON: rows, tokens, documentFrequency per
 * term), read once per file; a file that cannot be read or is not that shape is refused in one
 * sentence naming it.
 */
export function readFts5Statistics(path: string): Fts5Statistics {
  const known = loaded.get(path);
  if (known) return known;
  let parsed: z.infer<typeof fileSchema>;
  try {
    const size = statSync(path);
    if (!size.isFile() || size.size > MAX_BYTES)
      throw new Error(`not a file of at most ${MAX_BYTES / 2 ** 20} MB`);
    parsed = fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      error instanceof z.ZodError
        ? z.prettifyError(error).split('\n').join(' ')
        : code === 'ENOENT'
          ? 'there is no such file'
          : (error as Error).message;
    // The flag that named the file is added by the run config's error (either retriever's).
    throw new Error(`${path} is not FTS5 statistics (rows, tokens, documentFrequency): ${reason}`);
  }
  const statistics = {
    rows: parsed.rows,
    tokens: parsed.tokens,
    documentFrequency: new Map(Object.entries(parsed.documentFrequency)),
  };
  loaded.set(path, statistics);
  return statistics;
}

/**
 * The option schema of a statistics file: a file that cannot be read or is not FTS5 statistics is
 * refused with the run config, before the first question, in the sentence `readFts5Statistics` gives.
 */
export function fts5StatisticsOption() {
  return z
    .string()
    .min(1)
    .superRefine((path, context) => {
      try {
        readFts5Statistics(path);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .optional();
}

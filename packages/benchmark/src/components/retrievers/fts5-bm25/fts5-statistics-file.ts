import type { Fts5Statistics } from '@lme/search-core';
import { z } from 'zod';
import { READ_LIMITS, readGuardedTextFile } from '../../../config/read-guarded-file.js';

const fileSchema = z.strictObject({
  rows: z.number().int().positive(),
  tokens: z.number().int().nonnegative(),
  documentFrequency: z.record(z.string(), z.number().int().positive()),
});

const loaded = new Map<string, Fts5Statistics>();

/**
 * The FTS5 table statistics `--fts5-statistics` names (JSON: rows, tokens, documentFrequency per
 * term), read once per file; a file that cannot be read or is not that shape is refused in one
 * sentence naming it.
 */
export function readFts5Statistics(path: string): Fts5Statistics {
  const known = loaded.get(path);
  if (known) return known;
  let parsed: z.infer<typeof fileSchema>;
  try {
    parsed = fileSchema.parse(
      JSON.parse(readGuardedTextFile(path, { maxBytes: READ_LIMITS.config, links: 'follow' })),
    );
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error).split('\n').join(' ') : String(error);
    throw new Error(
      `--fts5-statistics ${path} is not FTS5 statistics (rows, tokens, documentFrequency): ${reason}`,
    );
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

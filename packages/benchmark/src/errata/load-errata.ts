import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { READ_LIMITS, readGuardedTextFile } from '../config/read-guarded-file.js';
import { type ErrataFile, errataFileSchema } from './errata-schema.js';

/** Errata live in configs/errata/<name>.json (errata-schema.ts). */
export const ERRATA_DIR = resolve(import.meta.dirname, '../../../../configs/errata');

/** An errata file as read: its content, where it is, and the SHA-256 of its bytes (recorded in config.json). */
export type LoadedErrata = ErrataFile & { path: string; file_sha256: string };

export function listErrata(dir = ERRATA_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** Reads and validates a named errata file (or a path to one); an unknown name lists the known ones. */
export function loadErrata(nameOrPath: string, dir = ERRATA_DIR): LoadedErrata {
  const path = nameOrPath.endsWith('.json') ? resolve(nameOrPath) : join(dir, `${nameOrPath}.json`);
  if (!existsSync(path)) {
    throw new Error(
      `Unknown errata "${nameOrPath}" (--errata); known: ${listErrata(dir).join(', ') || 'none'}.`,
    );
  }
  // At most 1 MB, a regular file, UTF-8 (the committed errata are under 20 kB).
  const text = readGuardedTextFile(path, {
    what: `--errata ${path}`,
    maxBytes: READ_LIMITS.small,
    links: 'follow',
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}).`);
  }
  const parsed = errataFileSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new Error(`${path} is not a valid errata file: ${problems.join('; ')}.`);
  }
  return { ...parsed.data, path, file_sha256: createHash('sha256').update(text).digest('hex') };
}

/** The errata file whose `files` name this dataset checksum, if any (the first by name). */
export function findErrataFor(
  sha256s: readonly (string | null | undefined)[],
  dir = ERRATA_DIR,
): LoadedErrata | undefined {
  const wanted = new Set(sha256s.filter((value): value is string => typeof value === 'string'));
  if (wanted.size === 0) return undefined;
  for (const name of listErrata(dir)) {
    let errata: LoadedErrata;
    try {
      errata = loadErrata(name, dir);
    } catch {
      continue;
    }
    if (errata.files.some((file) => wanted.has(file.sha256))) return errata;
  }
  return undefined;
}

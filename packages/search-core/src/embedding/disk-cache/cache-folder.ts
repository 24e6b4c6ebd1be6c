import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheFolderProblem } from '../../core/cache-folder-problem.js';
import { makeDirectory } from '../../core/make-directory.js';

/*
 * Where the embedding cache keeps its files, below `<dir>/embeddings/<embedder folder>/`:
 *
 *   seg-<time>-<pid>-<random>.lmev          a complete, immutable segment (read by every process)
 *   .tmp-<time>-<pid>-<random>.lmev         a segment being written (ignored by readers)
 *   corrupt-seg-<time>-<pid>-<random>.lmev  a segment that failed its checksums, set aside
 *                                           (ignored by readers, removed by `lme cache clear`)
 *   .writer.lock/                           held by the process writing a segment (writer-lock.ts)
 */

export const SEGMENT_PREFIX = 'seg-';
export const TEMP_PREFIX = '.tmp-';
export const CORRUPT_PREFIX = 'corrupt-';
export const SEGMENT_SUFFIX = '.lmev';
export const WRITER_LOCK = '.writer.lock';

export function embeddingsRoot(dir: string): string {
  return join(dir, 'embeddings');
}

export function embedderFolder(dir: string, embedderId: string): string {
  return join(embeddingsRoot(dir), embedderFolderName(embedderId));
}

/** A readable, filesystem-safe folder name that cannot collide for two ids. */
export function embedderFolderName(embedderId: string): string {
  const readable = embedderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const digest = createHash('sha256').update(embedderId).digest('hex').slice(0, 12);
  return `${readable}-${digest}`;
}

export function isSegmentName(name: string): boolean {
  return name.startsWith(SEGMENT_PREFIX) && name.endsWith(SEGMENT_SUFFIX);
}

export function uniqueSegmentStem(): string {
  return `${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** For `.catch`: null when the file is gone (another process renamed or removed it), else rethrow. */
export function ignoreMissing(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw error;
}

/** The names in a folder; none when it does not exist. */
export async function listDirectory(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Checks, before any work, that the cache folder of this embedder can be made and written: it
 * makes the folder, writes and removes a small temp file. Throws one sentence naming the folder and
 * what to do (a read-only disk, a file where a folder goes), so a run stops once instead of failing
 * each question.
 */
export async function checkEmbeddingCacheFolder(dir: string, embedderId: string): Promise<void> {
  const folder = embedderFolder(dir, embedderId);
  const probe = join(folder, `${TEMP_PREFIX}probe-${uniqueSegmentStem()}`);
  try {
    await makeDirectory(folder);
    await writeFile(probe, 'lme', { flag: 'wx' });
    await rm(probe, { force: true });
  } catch (error) {
    throw new Error(cacheFolderProblem({ what: 'embedding cache', folder, error }), { cause: error });
  }
}

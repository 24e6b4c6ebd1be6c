import { constants, lstatSync, openSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Writing inside a results folder, which is data that may come from anyone: lme never follows a
 * link there that it did not make. A file about to be replaced or appended to must be absent or a
 * regular file; a symbolic link (or a folder, a pipe, a device) is refused in one sentence naming
 * it. Whole files are written to a temporary name and renamed (write-file-atomic), so a crash or a
 * full disk leaves the old file or the new one, never a torn one.
 */
export function refuseLink(path: string): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (stats.isSymbolicLink()) {
    throw new Error(
      `${path} is a symbolic link; lme does not write through links it did not make: remove it or write elsewhere.`,
    );
  }
  if (!stats.isFile()) {
    throw new Error(
      `${path} is not a regular file; lme writes only regular files: remove it or write elsewhere.`,
    );
  }
}

/** Replaces `path` atomically with `text`, refusing a link in its place. */
export function writeFileNoFollow(path: string, text: string): void {
  refuseLink(path);
  // write-file-atomic resolves links before writing; the check above leaves none to resolve.
  writeFileAtomic.sync(path, text);
}

/** Opens `path` for appending (created if absent) without following a link in its place. */
export function openAppendNoFollow(path: string): number {
  try {
    return openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o644,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') refuseLink(path);
    throw error;
  }
}

/**
 * Refuses an output path that is one of `inputs` (the same file, through any link or spelling):
 * `lme report --html --out <run>/samples.jsonl` would replace the run's data with a report.
 */
export function refuseOverwritingInput(out: string, inputs: readonly string[], flag = '--out'): void {
  const target = canonical(out);
  for (const input of inputs) {
    if (canonical(input) === target) {
      throw new Error(`${flag} ${out} is one of the run's own files (${input}); write the output elsewhere.`);
    }
  }
}

/** `path` with its folder's links resolved (the file itself may not exist yet). */
function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

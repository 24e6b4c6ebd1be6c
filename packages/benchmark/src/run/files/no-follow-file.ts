import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writing inside a results folder, which is data that may come from anyone: lme never follows a
 * link there that it did not make. A file about to be replaced or appended to must be absent or a
 * regular file; a symbolic link (or a folder, a pipe, a device) is refused in one sentence naming
 * it. Whole files are written to a temporary name and renamed, so a crash or a full disk leaves the
 * old file or the new one, never a torn one.
 *
 * Not write-file-atomic: its one write() call can write part of the text on a nearly full disk,
 * with no error, and then renames the torn file into place. writeFileSync loops until every byte
 * is written or throws ENOSPC.
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
  // Created exclusively (O_EXCL never follows a link) beside the target, so the rename is atomic.
  const temporary = join(
    dirname(path),
    `.${basename(path)}.lme-tmp-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  const handle = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    try {
      writeFileSync(handle, text);
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw diskError(error, path);
  }
}

/**
 * Appends all of `text` at `handle` (looping over short writes), or throws naming `path` and cuts
 * the file back to where it was, so a full disk leaves no torn line.
 */
export function appendAll(handle: number, text: string, path: string): void {
  const before = fstatSync(handle).size;
  try {
    writeFileSync(handle, text);
  } catch (error) {
    try {
      ftruncateSync(handle, before);
    } catch {
      // Readers drop a torn last line anyway.
    }
    throw diskError(error, path);
  }
}

/** A full disk or quota as one sentence naming the file; other errors as they are. */
export function diskError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return error;
  return Object.assign(
    new Error(
      `No space left on the disk holding ${path} (${code}); free space, then continue the run with lme run --resume ${dirname(path)}.`,
    ),
    { code },
  );
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

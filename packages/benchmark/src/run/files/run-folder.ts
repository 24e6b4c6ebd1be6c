import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureDirectory } from './ensure-directory.js';
import { appendAll, openAppendNoFollow, writeFileNoFollow } from './no-follow-file.js';

/**
 * The files of one run. samples.jsonl is appended with a synchronous write per question, so a
 * crash or kill loses nothing already finished; whole-file outputs are written to a temporary name
 * and renamed, so a reader never sees half a file.
 */
export type RunFolder = {
  dir: string;
  appendSample(line: object): void;
  /** Appends text to another file of the folder (explain.jsonl). */
  appendText(name: string, text: string): void;
  /** Replaces samples.jsonl atomically with these lines (drops a torn line or retried errors). */
  rewriteSamples(lines: readonly object[]): void;
  writeJson(name: string, value: unknown): void;
  writeText(name: string, text: string): void;
  close(): void;
};

/** Every file a run writes; `--overwrite` removes these and nothing else. */
export const RUN_FILES = [
  'config.json',
  'samples.jsonl',
  'summary.json',
  'summary.csv',
  'samples.csv',
  'report.md',
  'hypotheses.jsonl',
  'explain.jsonl',
] as const;

const LOCK_FILE = '.lme-run.lock';

export function openRunFolder(dir: string): RunFolder {
  ensureDirectory(dir, 'run folder');
  const samplesPath = join(dir, 'samples.jsonl');
  let samples = openAppendNoFollow(samplesPath);
  const writeText = (name: string, text: string) => writeFileNoFollow(join(dir, name), text);
  let open = true;
  return {
    dir,
    appendSample(line) {
      appendAll(samples, `${JSON.stringify(line)}\n`, samplesPath);
    },
    appendText(name, text) {
      const handle = openAppendNoFollow(join(dir, name));
      try {
        appendAll(handle, text, join(dir, name));
      } finally {
        closeSync(handle);
      }
    },
    rewriteSamples(lines) {
      closeSync(samples);
      writeText('samples.jsonl', lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      samples = openAppendNoFollow(samplesPath);
    },
    writeJson: (name, value) => writeText(name, `${JSON.stringify(value, null, 2)}\n`),
    writeText,
    close() {
      if (open) closeSync(samples);
      open = false;
    },
  };
}

/** A run folder held by this process until `release`. */
export type RunFolderClaim = {
  /** Whether this claim created the folder (a failed start removes it again). */
  created: boolean;
  release(): void;
  /** Removes the folder this claim created; used when a run fails before its first question. */
  discard(): void;
};

/**
 * Takes a run folder for one run: a new run creates it exclusively (an existing folder is an error
 * unless `overwrite`, which removes its run files), and every run holds an exclusive lock file, so
 * two runs can never write the same folder at once. A lock left by a dead process is taken over.
 */
export function claimRunFolder(
  dir: string,
  options: { mode: 'new' | 'resume'; overwrite?: boolean },
): RunFolderClaim {
  let created = false;
  if (options.mode === 'new') {
    ensureDirectory(dirname(dir), '--out');
    try {
      mkdirSync(dir);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (options.overwrite && lstatSync(dir).isSymbolicLink()) {
        throw new Error(
          `Run folder ${dir} is a symbolic link; --overwrite replaces only a real folder: remove the link or choose another --run-id.`,
        );
      }
      if (!options.overwrite) {
        throw new Error(
          `Run folder ${dir} already exists: choose another --run-id, continue it with --resume ${dir}, or replace its outputs with --overwrite.`,
        );
      }
    }
  }
  const lock = join(dir, LOCK_FILE);
  takeLock(lock, dir);
  if (options.mode === 'new' && !created) {
    for (const name of RUN_FILES) rmSync(join(dir, name), { force: true });
  }
  let held = true;
  const release = () => {
    if (held) rmSync(lock, { force: true });
    held = false;
  };
  return {
    created,
    release,
    discard() {
      release();
      if (created) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function takeLock(lock: string, dir: string, attempt = 0): void {
  try {
    const handle = openSync(lock, 'wx');
    writeSync(handle, String(process.pid));
    closeSync(handle);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(readFileSync(lock, 'utf8').trim());
    if (attempt === 0 && !isAlive(owner)) {
      unlinkSync(lock);
      takeLock(lock, dir, 1);
      return;
    }
    throw new Error(
      `Run folder ${dir} is in use by another run (process ${owner || 'unknown'}); wait for it, or choose another --run-id. If no lme run is using it (after a crash the process id may have been reused), delete ${lock}.`,
    );
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { notRegular } from './read-capped-file.js';
import { decodeUtf8 } from './strict-utf8.js';

const MB = 1024 * 1024;

/**
 * The most lme reads of each file it reads back, sized to what lme writes with room to spare: a
 * run's config.json is a few kB, summary.json of a 500-question run with every metric under 200 kB,
 * samples.jsonl and explain.jsonl of LongMemEval S a few MB. Far below what would exhaust the
 * machine or reach V8's longest string (512 MB), where a bigger file would fail with a raw message.
 */
export const READ_LIMITS = {
  /** A file a user writes by hand and names: `--config`, a preset, a gate file, errata, a claim file. */
  small: 1 * MB,
  /** config.json of a run (a manifest). */
  config: 16 * MB,
  /** summary.json of a run, or a baseline summary. */
  summary: 64 * MB,
  /** samples.jsonl or explain.jsonl of a run: one line per question. */
  lines: 256 * MB,
} as const;

export type GuardedReadOptions = {
  /** How the file is named in a refusal (`--errata x.json`); the path by default. */
  what?: string;
  /** Refused above this many bytes (a `READ_LIMITS` entry). */
  maxBytes: number;
  /**
   * `refuse` (the default): a symbolic link at `path` is refused, as lme never follows a link in a
   * results folder that it did not make. `follow`: a file the user names on the command line, where a
   * link is the user's own choice (the target is still checked).
   */
  links?: 'refuse' | 'follow';
};

/** `1 MB`, `512 kB`. */
function formatBytes(bytes: number): string {
  return bytes >= MB ? `${bytes / MB} MB` : `${bytes / 1024} kB`;
}

function openRefusal(what: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ELOOP') {
    return new Error(
      `${what} is a symbolic link; lme does not follow links in a results folder that it did not make (copy the file in its place).`,
    );
  }
  return new Error(`${what} cannot be read (${error.code ?? error.message}).`);
}

/**
 * The one guarded read of a text file lme reads back: a results folder's summary.json, config.json,
 * samples.jsonl and explain.jsonl, a baseline, a gate file, a `--config` file, errata, a claim file.
 * Opened non-blocking and (unless `links: 'follow'`) without following a link, so a FIFO is refused
 * by its fstat instead of hanging the process and a link to `/dev/zero` or another file is refused;
 * the open descriptor must be a regular file no larger than `maxBytes` (checked again while reading,
 * so a file that grows meanwhile is cut off there), and every byte must be UTF-8. Each refusal is
 * one sentence naming the file.
 */
export function readGuardedTextFile(path: string, options: GuardedReadOptions): string {
  const what = options.what ?? path;
  const tooLarge = () =>
    new Error(
      `${what} holds more than ${formatBytes(options.maxBytes)}, the most lme reads of such a file; lme never writes one this large (check the path).`,
    );
  const flags =
    constants.O_RDONLY | constants.O_NONBLOCK | (options.links === 'follow' ? 0 : constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    throw openRefusal(what, error as NodeJS.ErrnoException);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(what, stats);
    if (stats.size > options.maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      // What fstat promised plus one byte (to see the end), never past maxBytes + 1.
      const room = Math.min(Math.max(stats.size - length + 1, 64 * 1024), options.maxBytes + 1 - length);
      const chunk = Buffer.allocUnsafe(room);
      const read = readSync(fd, chunk, 0, room, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > options.maxBytes) throw tooLarge();
    }
    return decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length), what);
  } finally {
    closeSync(fd);
  }
}

/** A JSON file read through `readGuardedTextFile`; text that is not JSON is one sentence naming it. */
export function readGuardedJsonFile(path: string, options: GuardedReadOptions): unknown {
  const text = readGuardedTextFile(path, options);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${options.what ?? path} is not valid JSON (${(error as Error).message}).`);
  }
}

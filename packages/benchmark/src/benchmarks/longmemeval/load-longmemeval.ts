import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkDatasetFile } from '../../dataset/check-dataset-file.js';
import { readJsonArrayObjects } from '../../dataset/json-array-records.js';
import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { validateRecord } from './validate-record.js';

/**
 * What to do with a session id that appears twice in one haystack (13 S haystacks repeat one
 * non-evidence session, same content, another date). `keep` indexes both copies, as the official
 * scripts do (they then take two adjacent ranks); `first` keeps the first copy only. On S the
 * choice changes no official metric; `keep` is the default so rankings match the official ones.
 */
export type DuplicateSessionPolicy = 'keep' | 'first';

export type LoadOptions = {
  duplicateSessions?: DuplicateSessionPolicy;
  /** Called once per validated record, in file order. */
  onRecord?: (record: LongMemEvalRecord, position: number) => void;
  /** Called with each problem that does not stop the load (LoCoMo evidence naming no dialog). */
  onWarning?: (message: string) => void;
};

export type LoadedDataset = {
  path: string;
  /** SHA-256 of the uncompressed JSON. */
  sha256: string;
  records: LongMemEvalRecord[];
};

/**
 * The committed real sample (22 S questions). `sample` always means this file, whatever the data
 * directory: it ships with the repository, not with the downloaded data.
 */
export const COMMITTED_SAMPLE = resolve(
  import.meta.dirname,
  '../../../../../datasets/sample/longmemeval_s_sample.json.gz',
);

/**
 * Dataset short names and the file names they resolve to inside the data directory, first match
 * wins (`.json.gz` or `.json`); `sample` is the exception, see COMMITTED_SAMPLE.
 */
export const DATASET_FILES = {
  oracle: ['longmemeval_oracle'],
  s: ['longmemeval_s_cleaned', 'longmemeval_s'],
  m: ['longmemeval_m_cleaned', 'longmemeval_m'],
  sample: ['sample/longmemeval_s_sample'],
} satisfies Record<string, string[]>;

/**
 * Resolves `oracle`, `s` or `m` inside the data directory, `sample` to the committed sample, or
 * takes any other value as a path. Throws naming every place it looked.
 */
export function resolveDatasetPath(dataset: string, dataDir: string): string {
  if (dataset === 'sample') {
    if (!existsSync(COMMITTED_SAMPLE))
      throw new Error(`Dataset "sample": the committed file ${COMMITTED_SAMPLE} is missing.`);
    return COMMITTED_SAMPLE;
  }
  const stems = (DATASET_FILES as Record<string, string[]>)[dataset];
  if (!stems) {
    const path = resolve(dataset);
    if (!existsSync(path)) {
      throw new Error(
        `Dataset "${dataset}" is neither a known name (${Object.keys(DATASET_FILES).join(', ')}) nor an existing file.`,
      );
    }
    return path;
  }
  const tried: string[] = [];
  for (const stem of stems) {
    for (const extension of ['.json.gz', '.json']) {
      const path = resolve(dataDir, stem + extension);
      if (existsSync(path)) return path;
      tried.push(path);
    }
  }
  throw new Error(
    `Dataset "${dataset}" not found; looked for ${tried.join(', ')}. Download it with \`lme datasets download ${dataset}\`, or set --data-dir or LME_DATA_DIR to the folder holding the LongMemEval files.`,
  );
}

export type StreamedDataset = {
  path: string;
  records: AsyncGenerator<LongMemEvalRecord>;
  /** SHA-256 of the uncompressed JSON; known once `records` is exhausted. */
  sha256(): string;
  /** Share of the file read so far, 0 to 1 (compressed bytes for `.gz`). */
  fractionRead(): number;
};

/**
 * Streams a LongMemEval file (`.json` or `.json.gz`) record by record, validating each, so a run
 * can start on the first question while the rest is still being read and never holds the whole
 * file. Errors name the file, and the question and field where one is at fault.
 */
export function streamLongMemEval(path: string, options: LoadOptions = {}): StreamedDataset {
  const hash = createHash('sha256');
  let digest: string | undefined;
  let bytesRead = 0;
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  async function* records(): AsyncGenerator<LongMemEvalRecord> {
    const seen = new Set<string>();
    let position = 0;
    await checkDatasetFile(path);
    try {
      const objects = readJsonArrayObjects(path, {
        onBytes: (bytes) => hash.update(bytes),
        onFileBytes: (count) => {
          bytesRead += count;
        },
      });
      for await (const text of objects) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          throw new Error(`record ${position} is not valid JSON (${(error as Error).message})`);
        }
        const record = validateRecord(parsed, position);
        if (seen.has(record.question_id)) throw new Error(`question ${record.question_id} appears twice`);
        seen.add(record.question_id);
        if (options.duplicateSessions === 'first') dropRepeatedSessions(record);
        options.onRecord?.(record, position);
        position++;
        yield record;
      }
    } catch (error) {
      throw new Error(`${path}: ${describeReadError(error)}`);
    }
    if (position === 0) throw new Error(`${path}: holds no question records`);
    digest = hash.digest('hex');
  }
  return {
    path,
    records: records(),
    sha256() {
      if (digest === undefined) throw new Error(`${path}: checksum asked for before the file was read`);
      return digest;
    },
    fractionRead: () => (size === 0 ? 0 : Math.min(1, bytesRead / size)),
  };
}

/** Reads a whole LongMemEval file into memory (see `streamLongMemEval`). */
export async function loadLongMemEval(path: string, options: LoadOptions = {}): Promise<LoadedDataset> {
  const stream = streamLongMemEval(path, options);
  const records: LongMemEvalRecord[] = [];
  for await (const record of stream.records) records.push(record);
  return { path, sha256: stream.sha256(), records };
}

function describeReadError(error: unknown): string {
  const typed = error as NodeJS.ErrnoException;
  if (typed.code === 'Z_BUF_ERROR' || typed.code === 'Z_DATA_ERROR') {
    return `the gzip data is corrupt or truncated (${typed.message})`;
  }
  if (typed.code === 'ENOENT') return 'no such file';
  return typed.message;
}

function dropRepeatedSessions(record: LongMemEvalRecord): void {
  const seen = new Set<string>();
  const keep: number[] = [];
  record.haystack_session_ids.forEach((sessionId, index) => {
    if (!seen.has(sessionId)) keep.push(index);
    seen.add(sessionId);
  });
  if (keep.length === record.haystack_session_ids.length) return;
  record.haystack_session_ids = keep.map((index) => record.haystack_session_ids[index]!);
  record.haystack_dates = keep.map((index) => record.haystack_dates[index]!);
  record.haystack_sessions = keep.map((index) => record.haystack_sessions[index]!);
}

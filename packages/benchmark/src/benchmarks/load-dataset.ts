import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { checkDatasetFile } from '../dataset/check-dataset-file.js';
import { readWholeDatasetFile } from '../dataset/input-limits.js';
import { readJsonArrayObjects } from '../dataset/json-array-records.js';
import type { BenchmarkLoadOptions, LoadedBenchmarkFile } from './benchmark.js';
import {
  BENCHMARKS,
  type BenchmarkName,
  DEFAULT_BENCHMARK,
  recognizeBenchmark,
  recognizeFolder,
} from './benchmark-registry.js';

/** Which benchmark a dataset file holds: a key of `BENCHMARKS`. */
export type DatasetFormat = BenchmarkName;

export type LoadedAnyDataset = LoadedBenchmarkFile & { format: DatasetFormat };

/**
 * Which benchmark a dataset file holds, from its first record (`Benchmark.recognizes`: LoCoMo
 * conversations have `conversation` and `qa`); anything else is taken for LongMemEval (whose loader then
 * validates it). A file that
 * is one JSON object rather than an array is accepted only when it is a single LoCoMo conversation.
 * Every error starts with the path.
 */
export async function detectDatasetFormat(path: string): Promise<DatasetFormat> {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    const format = recognizeFolder(path);
    if (format) return format;
    throw new Error(
      `${path}: is a directory that no benchmark reads (a BEAM tier holds numbered conversation folders, each with chat.json and probing_questions/probing_questions.json)`,
    );
  }
  await checkDatasetFile(path);
  const opening = await firstCharacter(path);
  if (opening === '') throw new Error(`${path}: the file holds only whitespace`);
  if (opening === '{') {
    const value = await readJsonValue(path);
    const format = recognizeBenchmark(value);
    if (format !== DEFAULT_BENCHMARK) return format;
    const keys = Object.keys(value as object).slice(0, 5);
    throw new Error(
      `${path}: the file is one JSON object (keys: ${keys.join(', ') || 'none'}), but lme reads a JSON array of LongMemEval question records, or a LoCoMo file (an array of conversations, or one conversation with "conversation" and "qa")`,
    );
  }
  try {
    for await (const text of readJsonArrayObjects(path)) {
      let first: unknown;
      try {
        first = JSON.parse(text);
      } catch {
        return DEFAULT_BENCHMARK; // the LongMemEval loader reports the bad record
      }
      return recognizeBenchmark([first]);
    }
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  return DEFAULT_BENCHMARK;
}

/** Parses a whole (small) JSON file, `.gz` or not; errors start with the path. */
async function readJsonValue(path: string): Promise<unknown> {
  const bytes = await readWholeDatasetFile(path);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Loads a LongMemEval or a LoCoMo file, whichever it is, into LongMemEval records (LoCoMo mapped
 * as `locomoRecords` describes). Reads the whole file; large LongMemEval runs stream with
 * `streamLongMemEval` instead.
 */
export async function loadAnyDataset(
  path: string,
  options: BenchmarkLoadOptions = {},
): Promise<LoadedAnyDataset> {
  const format = await detectDatasetFormat(path);
  return { format, ...(await BENCHMARKS[format].load(path, options)) };
}

/** The first non-whitespace character of the (uncompressed) file, or '' for an empty file. */
async function firstCharacter(path: string): Promise<string> {
  const handle = await open(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    let bytes: Buffer = head.subarray(0, bytesRead);
    if (path.endsWith('.gz')) bytes = await gunzipPrefix(bytes);
    return /\S/.exec(bytes.toString('utf8'))?.[0] ?? '';
  } finally {
    await handle.close();
  }
}

/** Decompresses as much of a gzip prefix as it holds (a truncated stream is expected here). */
function gunzipPrefix(bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const gunzip = createGunzip();
    const done = () => resolve(Buffer.concat(chunks));
    gunzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gunzip.on('error', done);
    gunzip.on('end', done);
    gunzip.end(bytes);
  });
}

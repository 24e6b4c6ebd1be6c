import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { checkDatasetFile } from '../dataset/check-dataset-file.js';
import { readJsonArrayObjects } from '../dataset/json-array-records.js';
import { readDatasetJson } from '../dataset/parse-dataset-json.js';
import type { BenchmarkLoadOptions, LoadedBenchmarkFile } from './benchmark.js';
import {
  benchmarkNamed,
  benchmarks,
  defaultBenchmark,
  recognizeBenchmark,
  recognizeBenchmarkPath,
} from './benchmark-registry.js';
import type { LongMemEvalRecord } from './longmemeval-record.js';

/** Which benchmark a dataset holds: a key of `BENCHMARKS`. */
export type DatasetFormat = string;

export type LoadedAnyDataset = LoadedBenchmarkFile & { format: DatasetFormat };

/**
 * Which benchmark a dataset holds: the benchmark that takes the path as its own
 * (`Benchmark.recognizesPath`: a folder), else the one that recognises the file's first record
 * (`Benchmark.recognizes`), else the default benchmark (whose loader then validates it). A file
 * that is one JSON object rather than an array is accepted only when a benchmark recognises it.
 * Every error starts with the path.
 */
export async function detectDatasetFormat(path: string): Promise<DatasetFormat> {
  const DEFAULT_BENCHMARK = defaultBenchmark().name;
  const byPath = await recognizeBenchmarkPath(path);
  if (byPath !== undefined) return byPath;
  await checkDatasetFile(path);
  const opening = await firstCharacter(path);
  if (opening === '') throw new Error(`${path}: the file holds only whitespace`);
  if (opening === '{') {
    const value = await readJsonValue(path);
    const format = recognizeBenchmark(value);
    if (format !== DEFAULT_BENCHMARK) return format;
    const keys = Object.keys(value as object).slice(0, 5);
    throw new Error(
      `${path}: the file is one JSON object (keys: ${keys.join(', ') || 'none'}), but lme reads ${Object.values(
        benchmarks(),
      )
        .map((benchmark) => benchmark.formatHint)
        .join(', or ')}`,
    );
  }
  try {
    for await (const text of readJsonArrayObjects(path)) {
      let first: unknown;
      try {
        first = JSON.parse(text);
      } catch {
        return DEFAULT_BENCHMARK; // the default benchmark's loader reports the bad record
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
  return (await readDatasetJson(path)).value;
}

/**
 * Loads a dataset of any registered benchmark, whichever it is, into the common records (each
 * benchmark maps its own). Reads the whole dataset; a benchmark with `stream` can be read record
 * by record instead (`streamDataset`).
 */
export async function loadAnyDataset(
  path: string,
  options: BenchmarkLoadOptions = {},
): Promise<LoadedAnyDataset> {
  const format = await detectDatasetFormat(path);
  return { format, ...(await benchmarkNamed(format).load(path, options)) };
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

/**
 * Every record of a dataset of any benchmark, in dataset order: streamed when its benchmark
 * streams (`Benchmark.stream`), else loaded whole. Stop early by leaving the loop.
 */
export async function* datasetRecords(
  path: string,
  options: BenchmarkLoadOptions = {},
): AsyncGenerator<LongMemEvalRecord> {
  const benchmark = benchmarkNamed(await detectDatasetFormat(path));
  if (benchmark.stream) yield* benchmark.stream(path, options).records;
  else yield* (await benchmark.load(path, options)).records;
}

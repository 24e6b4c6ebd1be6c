import { statSync } from 'node:fs';
import type { Benchmark, BenchmarkLoadOptions } from '../../benchmarks/benchmark.js';
import { benchmarkNamed, checkConvention } from '../../benchmarks/benchmark-registry.js';
import { resolveDatasetPath } from '../../benchmarks/dataset-path.js';
import { detectDatasetFormat, loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { validateDataset } from '../../benchmarks/validate-dataset.js';
import { suggestNames } from '../../config/close-names.js';
import type { RunSections } from '../../config/run-sections.js';
import { judges, partsEmbed } from '../../config/run-shape.js';
import type { DataSection } from '../../config/sections/data-section.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import {
  acceptsRecord,
  chosenPositions,
  needsAllRecords,
  parseShard,
  type QuestionHead,
  type Selection,
} from './select-questions.js';

/** A whole dataset read into memory, as `loadAnyDataset` returns it. */
export type LoadedRecords = {
  /** The benchmark's name (a key of `BENCHMARKS`). */
  format: string;
  records: LongMemEvalRecord[];
  sha256: string;
};

/** The selected questions of a run, in dataset order, with their dataset positions. */
export type QuestionSource = {
  items: AsyncIterable<{ record: LongMemEvalRecord; position: number }>;
  /** Share of the work done after `done` questions, estimated while the dataset streams. */
  fraction(done: number): number;
  /** How many questions the selection holds; undefined when a streamed file could not be counted first. */
  total: number | undefined;
  /** SHA-256 of the dataset's text; known once every item was read. */
  sha256(): string;
};

export function selectionOf(config: DataSection): Selection {
  return {
    questionIds: config.questionIds,
    questionTypes: config.questionTypes,
    shard: config.shard === undefined ? undefined : parseShard(config.shard),
    limit: config.limit,
    seed: config.seed,
    split: config.split,
  };
}

/**
 * Whether a run reads the whole dataset once to check every record before its first question.
 * It does when per-question work costs more than a pass of reading (the S file takes about 1.8 s
 * of CPU): QA calls, an external provider, or embeddings. A BM25-only run streams the file and
 * checks each record as it reads it, so a bad record stops it there, with every finished question
 * saved (`--resume` continues after the file is fixed). It reads the provider, what `partsEmbed`
 * reads (the retriever and its routes, the selected stages) and the QA section.
 */
export function validatesFirst(
  sections: Pick<RunSections, 'provider' | 'qa' | 'retrieval' | 'pipelineStages'>,
): boolean {
  const provider = providerCapabilities(sections.provider.provider);
  return judges(sections.qa) || provider.external || partsEmbed(sections, provider);
}

/**
 * Before the first question: checks every record of the file when `validate` (`validatesFirst`) says so, and
 * refuses, in one sentence with close names, --question-ids or --question-types naming questions
 * the dataset does not have. At most one pass over the file, none when it is already in memory.
 */
export async function checkDataset(
  path: string,
  config: DataSection,
  preloaded: readonly LongMemEvalRecord[] | undefined,
  validate: boolean,
): Promise<void> {
  const selecting = config.questionIds !== undefined || config.questionTypes !== undefined;
  let questions: { questionId: string; questionType: string }[];
  if (preloaded) {
    questions = preloaded.map((record) => ({
      questionId: record.question_id,
      questionType: record.question_type,
    }));
  } else if (selecting || validate) {
    questions = (await validateDataset(path, { duplicateSessions: config.duplicateSessions })).questions;
  } else return;
  if (!selecting) return;
  const ids = new Set(questions.map((question) => question.questionId));
  const types = new Set(questions.map((question) => question.questionType));
  for (const [flag, wanted, known] of [
    ['--question-types', config.questionTypes, types],
    ['--question-ids', config.questionIds, ids],
  ] as const) {
    const unknown = (wanted ?? []).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      const what = flag === '--question-ids' ? 'question id' : 'question type';
      throw new Error(
        `${flag} names ${unknown.length === 1 ? `a ${what}` : `${what}s`} that ${path} does not have: ${unknown
          .slice(0, 5)
          .map((name) => `"${name}" (${suggestNames(name, known)})`)
          .join(', ')}${unknown.length > 5 ? ', …' : ''}.`,
      );
    }
  }
}

/**
 * Above this size on disk, a LongMemEval file whose selection needs every record (`--limit`,
 * `--split`) is read twice, ids and types first, rather than held whole: M is 2.7 GB of JSON.
 */
export const TWO_PASS_BYTES = 512 * 2 ** 20;

/**
 * The selected questions, streamed from the file when the selection decides record by record.
 * A stratified limit or a dev/test split needs every question's id and type first: a small file
 * is read whole, a large one (`twoPassBytes`) twice, so memory holds one record at a time.
 */
export async function openQuestionSource(
  path: string,
  config: DataSection,
  preloaded?: LoadedRecords,
  twoPassBytes = TWO_PASS_BYTES,
  /** The loader's warnings (a BEAM gold id naming no message, …), each once, as it reads. */
  onWarning?: (message: string) => void,
): Promise<QuestionSource> {
  const selection = selectionOf(config);
  // A file may be read more than once (counted, then streamed): each warning is told once.
  const told = new Set<string>();
  const options = {
    duplicateSessions: config.duplicateSessions,
    ...(onWarning
      ? {
          onWarning: (message: string) => {
            if (told.has(message)) return;
            told.add(message);
            onWarning(message);
          },
        }
      : {}),
  };
  const format = preloaded?.format ?? (await detectDatasetFormat(path));
  const benchmark = benchmarkNamed(format);
  checkConvention(benchmark, config.convention, path);
  const needsAll = needsAllRecords(selection);
  const stream = benchmark.stream?.bind(benchmark);
  if (preloaded || !stream || (needsAll && fileSize(path) <= twoPassBytes)) {
    const { records, sha256 } = preloaded ?? (await loadAnyDataset(path, options));
    const positions = needsAll
      ? chosenPositions(selection, records)
      : records.flatMap((record, position) => (acceptsRecord(selection, record, position) ? [position] : []));
    const items = positions.map((position) => ({ record: records[position]!, position }));
    return {
      items: (async function* () {
        yield* items;
      })(),
      fraction: (done) => done / Math.max(items.length, 1),
      total: items.length,
      sha256: () => sha256,
    };
  }
  let chosen: Set<number> | undefined;
  let firstPass: string | undefined;
  if (needsAll) {
    const heads: QuestionHead[] = [];
    const first = stream(path, options);
    for await (const record of first.records)
      heads.push({ question_id: record.question_id, question_type: record.question_type });
    chosen = new Set(chosenPositions(selection, heads));
    firstPass = first.sha256();
  }
  const streamed = stream(path, options);
  return {
    items: (async function* () {
      let position = 0;
      for await (const record of streamed.records) {
        if (chosen ? chosen.has(position) : acceptsRecord(selection, record, position))
          yield { record, position };
        position++;
      }
      // The positions were chosen on the first read: a file replaced since would mix questions.
      if (firstPass !== undefined && streamed.sha256() !== firstPass)
        throw new Error(
          `${path} changed while it was read (SHA-256 ${firstPass.slice(0, 12)} when the questions were chosen, ${streamed.sha256().slice(0, 12)} now); run again on a file that stays put.`,
        );
    })(),
    fraction: chosen ? (done) => done / Math.max(chosen.size, 1) : () => streamed.fractionRead(),
    total: chosen ? chosen.size : await countSelected(stream, path, options, selection),
    sha256: () => streamed.sha256(),
  };
}

/**
 * The questions a streamed selection holds, counted in a first read so progress can say done of
 * total. A record that does not read stops the count only: the run then meets it as it streams,
 * keeping every question finished before it, and progress shows no total.
 */
async function countSelected(
  stream: NonNullable<Benchmark['stream']>,
  path: string,
  options: BenchmarkLoadOptions,
  selection: Selection,
): Promise<number | undefined> {
  let count = 0;
  let position = 0;
  try {
    for await (const record of stream(path, options).records) {
      if (acceptsRecord(selection, record, position)) count++;
      position++;
    }
  } catch {
    return undefined;
  }
  return count;
}

function fileSize(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/** The questions a config selects, read into memory (for dry runs). */
export async function selectRecords(config: DataSection): Promise<LongMemEvalRecord[]> {
  const path = resolveDatasetPath(config.dataset, config.dataDir);
  // Reading the selection below checks every record it reads: no separate validation pass.
  await checkDataset(path, config, undefined, false);
  const source = await openQuestionSource(path, config);
  const records: LongMemEvalRecord[] = [];
  for await (const { record } of source.items) records.push(record);
  if (records.length === 0) throw new Error(noQuestionsMessage(path, config));
  return records;
}

/** The sentence for a selection that yields no question. */
export function noQuestionsMessage(path: string, config: DataSection): string {
  const filters = [
    config.questionIds ? `--question-ids ${config.questionIds.join(',')}` : '',
    config.questionTypes ? `--question-types ${config.questionTypes.join(',')}` : '',
    config.shard ? `--shard ${config.shard}` : '',
    config.split && config.split !== 'all' ? `--split ${config.split}` : '',
  ].filter(Boolean);
  return `The selection ${filters.join(' ') || '(all questions)'} yields no question of ${path}; nothing was run.`;
}

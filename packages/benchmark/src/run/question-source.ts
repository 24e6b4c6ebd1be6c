import { suggestNames } from '../analysis/close-names.js';
import type { RunConfig } from '../config/run-config.js';
import { detectDatasetFormat, loadAnyDataset } from '../dataset/load-dataset.js';
import { resolveDatasetPath, streamLongMemEval } from '../dataset/load-longmemeval.js';
import type { LongMemEvalRecord } from '../dataset/longmemeval-record.js';
import {
  acceptsRecord,
  needsAllRecords,
  parseShard,
  type Selection,
  splitCandidates,
  stratifiedPositions,
} from './select-questions.js';

/** A whole dataset read into memory, as `loadAnyDataset` returns it. */
export type LoadedRecords = {
  format: 'longmemeval' | 'locomo';
  records: LongMemEvalRecord[];
  sha256: string;
};

/** The selected questions of a run, in dataset order, with their dataset positions. */
export type QuestionSource = {
  items: AsyncIterable<{ record: LongMemEvalRecord; position: number }>;
  /** Share of the work done after `done` questions, estimated while the dataset streams. */
  fraction(done: number): number;
  /** SHA-256 of the dataset's text; known once every item was read. */
  sha256(): string;
};

export function selectionOf(config: RunConfig): Selection {
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
 * Refuses, in one sentence with close names, --question-ids or --question-types naming questions
 * the dataset does not have. Reads the question ids and types of the whole file first (one pass)
 * when the dataset is not already in memory.
 */
export async function checkSelection(
  path: string,
  config: RunConfig,
  preloaded?: readonly LongMemEvalRecord[],
): Promise<void> {
  if (!config.questionIds && !config.questionTypes) return;
  const ids = new Set<string>();
  const types = new Set<string>();
  const add = (record: LongMemEvalRecord) => {
    ids.add(record.question_id);
    types.add(record.question_type);
  };
  if (preloaded) preloaded.forEach(add);
  else if ((await detectDatasetFormat(path)) === 'locomo') {
    (await loadAnyDataset(path, { duplicateSessions: config.duplicateSessions })).records.forEach(add);
  } else {
    for await (const record of streamLongMemEval(path).records) add(record);
  }
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
 * The selected questions, streamed from the file when the selection decides record by record;
 * read whole first when a stratified limit needs every question type counted.
 */
export async function openQuestionSource(
  path: string,
  config: RunConfig,
  preloaded?: LoadedRecords,
): Promise<QuestionSource> {
  const selection = selectionOf(config);
  const options = { duplicateSessions: config.duplicateSessions };
  const format = preloaded?.format ?? (await detectDatasetFormat(path));
  if (format === 'locomo' && config.convention === 'official') {
    throw new Error(
      `${path} is a LoCoMo file: it has no official LongMemEval gold; run it with --convention evidence.`,
    );
  }
  if (needsAllRecords(selection) || format === 'locomo' || preloaded) {
    const { records, sha256 } = preloaded ?? (await loadAnyDataset(path, options));
    const candidates = splitCandidates(
      selection,
      records.map((record, position) => ({ record, position })),
    ).filter(({ record, position }) => acceptsRecord(selection, record, position));
    const chosen =
      selection.limit === undefined
        ? undefined
        : new Set(stratifiedPositions(candidates, selection.limit, selection.seed));
    const items = candidates.filter(({ position }) => chosen?.has(position) ?? true);
    return {
      items: (async function* () {
        yield* items;
      })(),
      fraction: (done) => done / Math.max(items.length, 1),
      sha256: () => sha256,
    };
  }
  const stream = streamLongMemEval(path, options);
  return {
    items: (async function* () {
      let position = 0;
      for await (const record of stream.records) {
        if (acceptsRecord(selection, record, position)) yield { record, position };
        position++;
      }
    })(),
    fraction: () => stream.fractionRead(),
    sha256: () => stream.sha256(),
  };
}

/** The questions a config selects, read into memory (for dry runs). */
export async function selectRecords(config: RunConfig): Promise<LongMemEvalRecord[]> {
  const path = resolveDatasetPath(config.dataset, config.dataDir);
  await checkSelection(path, config);
  const source = await openQuestionSource(path, config);
  const records: LongMemEvalRecord[] = [];
  for await (const { record } of source.items) records.push(record);
  if (records.length === 0) throw new Error(noQuestionsMessage(path, config));
  return records;
}

/** The sentence for a selection that yields no question. */
export function noQuestionsMessage(path: string, config: RunConfig): string {
  const filters = [
    config.questionIds ? `--question-ids ${config.questionIds.join(',')}` : '',
    config.questionTypes ? `--question-types ${config.questionTypes.join(',')}` : '',
    config.shard ? `--shard ${config.shard}` : '',
    config.split && config.split !== 'all' ? `--split ${config.split}` : '',
  ].filter(Boolean);
  return `The selection ${filters.join(' ') || '(all questions)'} yields no question of ${path}; nothing was run.`;
}

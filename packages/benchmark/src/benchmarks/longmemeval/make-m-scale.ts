import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createGzip } from 'node:zlib';
import { parseLongMemEvalDate } from '@lme/search-core';
import { formatRecordDate } from '../../dataset/record-date.js';
import { seededRandom } from '../../dataset/seeded-random.js';
import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { streamLongMemEval } from './load-longmemeval.js';

/**
 * An M-scale LongMemEval file built from S: every question keeps its own haystack (evidence
 * sessions and their dates untouched) and gets distractor sessions drawn, with a fixed seed, from
 * the other questions' haystacks until it holds `sessionsPerQuestion` sessions. The real M file
 * (about 500 sessions per question) cannot be fetched on every machine; this one has the same
 * schema and scale, so runs on it measure what M costs. The distractors differ from M's: figures
 * on it compare difficulty, they do not reproduce M.
 */
export type MScaleOptions = {
  /** S (or any LongMemEval file): `.json` or `.json.gz`. */
  source: string;
  /** Where the gzip JSON is written. */
  target: string;
  /** Seed of the distractor draw and dates; the same seed gives the same bytes. Default 0. */
  seed?: number;
  /** Sessions per question after the draw. Default 500 (LongMemEval M). */
  sessionsPerQuestion?: number;
  /** gzip level, 1 to 9. Default 6. */
  gzipLevel?: number;
  /**
   * Which questions are written, and whose haystacks the distractors come from (default: every
   * one). A dev set at M scale keeps to the dev questions, so nothing of the test questions' files
   * enters it; evidence of any question is still never a distractor.
   */
  include?: (questionId: string) => boolean;
  /** Called after each question is written (for progress). */
  onQuestion?: (position: number, questionId: string) => void;
};

export type MScaleResult = {
  questions: number;
  sessions: number;
  /** Distinct sessions distractors were drawn from. */
  poolSize: number;
  /** SHA-256 of the gzip file as written (what `sha256sum` prints). */
  fileSha256: string;
  /** SHA-256 of the uncompressed JSON (what a run's config.json records). */
  jsonSha256: string;
  fileBytes: number;
  jsonBytes: number;
};

/**
 * A distractor candidate: a session of some question's haystack, kept as its UTF-8 JSON bytes
 * (outside the JS heap, half the size of a two-byte string) with the SHA-1 of those bytes.
 */
export type PoolSession = { id: string; json: Buffer; digest: string };

/** A pool entry for a session (also used for a question's own sessions). */
export function poolSession(id: string, session: unknown): PoolSession {
  const json = Buffer.from(JSON.stringify(session));
  return { id, json, digest: createHash('sha1').update(json).digest('hex') };
}

/** Minutes since 1970 of a LongMemEval date (`2023/05/30 (Tue) 23:40`), read as UTC like every lme date. */
export function dateToMinutes(date: string): number {
  const parsed = parseLongMemEvalDate(date);
  if (!parsed) throw new Error(`"${date}" is not a date like "2023/05/30 (Tue) 23:40"`);
  return parsed.getTime() / 60_000;
}

/** The LongMemEval date at minutes since 1970, weekday included. */
export function minutesToDate(minutes: number): string {
  return formatRecordDate(new Date(minutes * 60_000));
}

/** Whether a session may serve as another question's distractor: never anyone's evidence. */
function isEvidence(record: LongMemEvalRecord, index: number, goldIds: ReadonlySet<string>): boolean {
  const id = record.haystack_session_ids[index]!;
  return (
    goldIds.has(id) ||
    id.includes('answer') ||
    record.haystack_sessions[index]!.some((turn) => turn.has_answer)
  );
}

/**
 * Every distinct session of the file that is no question's evidence (not in any
 * `answer_session_ids`, no `answer` in its id, no `has_answer` turn), in file order, as JSON
 * bytes. Sessions are told apart by id and content: the same id with other content is another
 * candidate. Held in memory once (about 200 MB of UTF-8 for S).
 */
export async function collectDistractorPool(
  source: string,
  include: (questionId: string) => boolean = () => true,
): Promise<PoolSession[]> {
  const goldIds = new Set<string>();
  const seen = new Set<string>();
  // Every question's gold ids are known only once the file is read: evidence is dropped at the end.
  const candidates: PoolSession[] = [];
  for await (const record of streamLongMemEval(source).records) {
    const recordGold = new Set(record.answer_session_ids);
    for (const id of recordGold) goldIds.add(id);
    if (!include(record.question_id)) continue;
    record.haystack_sessions.forEach((session, index) => {
      if (isEvidence(record, index, recordGold)) return;
      const id = record.haystack_session_ids[index]!;
      const candidate = poolSession(id, session);
      const key = `${id}\u0000${candidate.digest}`;
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push(candidate);
    });
  }
  return candidates.filter((candidate) => !goldIds.has(candidate.id));
}

/**
 * One question's M-scale record as compact JSON: its own sessions plus distractors drawn from
 * the pool (skipping sessions already in its haystack, same id and content), each dated uniformly
 * at random within the span of the question's own dates, then every session sorted by date
 * (ties keep own sessions first, then draw order). A distractor whose id is already taken in the
 * haystack by other content is renamed `<id>~m<k>` (never an own or evidence id).
 */
export function scaleRecord(
  record: LongMemEvalRecord,
  pool: readonly PoolSession[],
  options: { seed: number; sessionsPerQuestion: number },
): Buffer {
  const ownSessions = record.haystack_sessions.map((session, index) =>
    poolSession(record.haystack_session_ids[index]!, session),
  );
  const needed = options.sessionsPerQuestion - ownSessions.length;
  const own = new Set(ownSessions.map((session) => `${session.id}\u0000${session.digest}`));
  const takenIds = new Set(record.haystack_session_ids);
  const random = seededRandom(`${options.seed}:${record.question_id}`);
  const ownMinutes = record.haystack_dates.map(dateToMinutes);
  const first = Math.min(...ownMinutes);
  const last = Math.max(...ownMinutes);
  type Entry = { id: string; date: string; minutes: number; json: Buffer; order: number };
  const entries: Entry[] = record.haystack_session_ids.map((id, index) => ({
    id,
    date: record.haystack_dates[index]!,
    minutes: ownMinutes[index]!,
    json: ownSessions[index]!.json,
    order: index,
  }));
  // Partial Fisher-Yates over pool positions: each draw is uniform over the positions left.
  const positions = new Map<number, number>();
  let remaining = pool.length;
  while (entries.length < options.sessionsPerQuestion && remaining > 0) {
    const pick = Math.floor(random() * remaining);
    const position = positions.get(pick) ?? pick;
    positions.set(pick, positions.get(remaining - 1) ?? remaining - 1);
    remaining--;
    const candidate = pool[position]!;
    if (own.has(`${candidate.id}\u0000${candidate.digest}`)) continue;
    let id = candidate.id;
    for (let suffix = 2; takenIds.has(id); suffix++) id = `${candidate.id}~m${suffix}`;
    takenIds.add(id);
    const minutes = first + Math.floor(random() * (last - first + 1));
    entries.push({ id, date: minutesToDate(minutes), minutes, json: candidate.json, order: entries.length });
  }
  if (needed > 0 && entries.length < options.sessionsPerQuestion) {
    throw new Error(
      `question ${record.question_id}: the pool holds ${pool.length} distractor sessions, too few to reach ${options.sessionsPerQuestion} sessions`,
    );
  }
  entries.sort((a, b) => a.minutes - b.minutes || a.order - b.order);
  const pieces: Buffer[] = [];
  const text = (value: string) => pieces.push(Buffer.from(value));
  text('{');
  Object.entries(record).forEach(([key, value], index) => {
    text(`${index === 0 ? '' : ','}${JSON.stringify(key)}:`);
    if (key === 'haystack_sessions') {
      text('[');
      entries.forEach((entry, at) => {
        if (at > 0) text(',');
        pieces.push(entry.json);
      });
      text(']');
    } else if (key === 'haystack_session_ids') text(JSON.stringify(entries.map((entry) => entry.id)));
    else if (key === 'haystack_dates') text(JSON.stringify(entries.map((entry) => entry.date)));
    else text(JSON.stringify(value));
  });
  text('}');
  return Buffer.concat(pieces);
}

/**
 * Writes the M-scale file: reads the source twice (once for the pool, once record by record),
 * and writes each record through a gzip stream as soon as it is built, so the output is never in
 * memory whole; what stays is the pool (one copy of every distinct distractor session).
 */
export async function writeMScaleDataset(options: MScaleOptions): Promise<MScaleResult> {
  const seed = options.seed ?? 0;
  const sessionsPerQuestion = options.sessionsPerQuestion ?? 500;
  // The source is read again while the target is written: the same file (or a link to it) would be
  // emptied under the reader.
  const target = await realpath(options.target).catch(() => resolve(options.target));
  if (target === (await realpath(options.source))) {
    throw new Error(
      `${options.target} is the source file ${options.source}: write the M-scale file elsewhere.`,
    );
  }
  const include = options.include ?? (() => true);
  const pool = await collectDistractorPool(options.source, include);
  const fileHash = createHash('sha256');
  const jsonHash = createHash('sha256');
  let fileBytes = 0;
  let jsonBytes = 0;
  const gzip = createGzip({ level: options.gzipLevel ?? 6 });
  const file = createWriteStream(options.target);
  gzip.on('data', (chunk: Buffer) => {
    fileHash.update(chunk);
    fileBytes += chunk.length;
  });
  gzip.pipe(file);
  const write = async (bytes: Buffer) => {
    jsonHash.update(bytes);
    jsonBytes += bytes.length;
    if (!gzip.write(bytes)) await once(gzip, 'drain');
  };
  let questions = 0;
  let sessions = 0;
  await write(Buffer.from('['));
  for await (const record of streamLongMemEval(options.source).records) {
    if (!include(record.question_id)) continue;
    const json = scaleRecord(record, pool, { seed, sessionsPerQuestion });
    if (questions > 0) await write(Buffer.from(','));
    await write(json);
    sessions += Math.max(sessionsPerQuestion, record.haystack_session_ids.length);
    options.onQuestion?.(questions, record.question_id);
    questions++;
  }
  await write(Buffer.from(']'));
  gzip.end();
  await once(file, 'close');
  return {
    questions,
    sessions,
    poolSize: pool.length,
    fileSha256: fileHash.digest('hex'),
    jsonSha256: jsonHash.digest('hex'),
    fileBytes,
    jsonBytes,
  };
}

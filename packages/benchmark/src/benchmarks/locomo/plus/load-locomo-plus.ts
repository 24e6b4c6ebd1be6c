import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { checkDatasetFile } from '../../../dataset/check-dataset-file.js';
import { readWholeDatasetFile } from '../../../dataset/input-limits.js';
import { parseDatasetJson } from '../../../dataset/parse-dataset-json.js';
import { pythonStrip } from '../../../dataset/python-compat.js';
import { formatRecordDate } from '../../../dataset/record-date.js';
import type { LongMemEvalRecord, Turn } from '../../longmemeval-record.js';
import { convertLocomoDate, locomoRecords } from '../load-locomo.js';
import { type LocomoCategoryId, locomoCategoryOf } from '../locomo-categories.js';
import {
  LOCOMO_PLUS_COGNITIVE,
  LOCOMO_PLUS_LOCOMO_NAMES,
  type LocomoPlusCategory,
  locomoPlusQuestionType,
} from './locomo-plus-categories.js';
import {
  analyzeConversation,
  buildStitchedContext,
  type LocomoPlusItem,
  type StitchedContext,
} from './stitch-locomo-plus.js';

/**
 * A LoCoMo-Plus question as the common record, with what its judge reads: the official category
 * name (which picks the judge prompt) and the evidence text the official `unified_input.py` writes
 * (`Speaker：text` lines, full-width colon: LoCoMo's evidence turns, or the cue dialogue).
 */
export type LocomoPlusRecord = LongMemEvalRecord & {
  locomo_plus_category: LocomoPlusCategory;
  locomo_plus_evidence: string;
  /** Cognitive only: the item's `time_gap` and its trigger query as written (`A: …`). */
  locomo_plus_time_gap?: string;
  locomo_plus_trigger?: string;
};

export type LoadedLocomoPlus = {
  path: string;
  /** SHA-256 of locomo_plus.json's bytes followed by locomo10.json's (both uncompressed). */
  sha256: string;
  records: LocomoPlusRecord[];
  warnings: string[];
};

/** Whether parsed JSON is locomo_plus.json: items with `cue_dialogue`, `trigger_query`, `time_gap`. */
export function isLocomoPlusShaped(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : undefined;
  return isObject(first) && 'cue_dialogue' in first && 'trigger_query' in first && 'time_gap' in first;
}

/** The LoCoMo file read beside locomo_plus.json: `locomo10.json`, or `locomo10.json.gz`. */
export function locomoFileBeside(plusPath: string): string {
  const directory = dirname(plusPath);
  const candidates = ['locomo10.json', 'locomo10.json.gz'].map((name) => join(directory, name));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      `${plusPath}: LoCoMo-Plus stitches its questions into the LoCoMo conversations, read from locomo10.json in the same folder (${directory}), which is missing; put the repository's data/locomo10.json beside ${basename(plusPath)}`,
    );
  }
  return found;
}

/**
 * Reads LoCoMo-Plus from its `locomo_plus.json` and the `locomo10.json` beside it (the
 * repository's `data/` folder as published), into the questions of the official unified input
 * (`unified_input.py`): LoCoMo's QA in five categories, then one Cognitive question per
 * locomo_plus.json item. Every error starts with the file at fault.
 */
export async function loadLocomoPlus(path: string): Promise<LoadedLocomoPlus> {
  await checkDatasetFile(path);
  const locomoPath = locomoFileBeside(path);
  await checkDatasetFile(locomoPath);
  const plusBytes = await readWholeDatasetFile(path);
  const locomoBytes = await readWholeDatasetFile(locomoPath);
  const sha256 = createHash('sha256').update(plusBytes).update(locomoBytes).digest('hex');
  const plus = parseDatasetJson(path, plusBytes);
  const locomo = parseDatasetJson(locomoPath, locomoBytes);
  const locomoQuestions = withFile(locomoPath, () => locomoPlusLocomoRecords(locomo));
  const cognitive = withFile(path, () => locomoPlusCognitiveRecords(plus, locomo));
  return {
    path,
    sha256,
    records: [...locomoQuestions.records, ...cognitive],
    warnings: locomoQuestions.warnings,
  };
}

/**
 * LoCoMo's QA as LoCoMo-Plus asks them: the records lme's LoCoMo loader makes (same ids,
 * haystacks and gold), typed by LoCoMo-Plus's category names, with the evidence text of
 * `_evidence_to_text` (each `Dn:k` of the QA's evidence, `;`-separated ones split, as
 * `speaker：text` of turn k of session_n, `[Dn:k] [Missing turn]` or `[…] [Parse error]`).
 */
export function locomoPlusLocomoRecords(value: unknown): { records: LocomoPlusRecord[]; warnings: string[] } {
  const { records, warnings } = locomoRecords(value);
  const conversations = (Array.isArray(value) ? value : [value]) as Array<Record<string, unknown>>;
  const qas = conversations.flatMap((entry) =>
    (entry.qa as Array<Record<string, unknown>>).map((qa) => ({
      qa,
      conversation: entry.conversation as Record<string, unknown>,
    })),
  );
  return {
    warnings,
    records: records.map((record, index) => {
      const { qa, conversation } = qas[index]!;
      const id = locomoCategoryOf(record.question_type)!.id as LocomoCategoryId;
      const category = LOCOMO_PLUS_LOCOMO_NAMES[id];
      const { locomo_evidence: _evidence, ...common } = record;
      return {
        ...common,
        question_type: locomoPlusQuestionType(category),
        locomo_plus_category: category,
        locomo_plus_evidence: evidenceText(conversation, parseEvidenceList(qa.evidence)),
      };
    }),
  };
}

/** `_parse_evidence_list`: a string or list of references, each split on `;` and stripped. */
export function parseEvidenceList(raw: unknown): string[] {
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  return list.flatMap((reference) =>
    String(reference)
      .split(';')
      .map((part) => pythonStrip(part))
      .filter((part) => part !== ''),
  );
}

const PYTHON_INT = /^[\s]*[+-]?\d+[\s]*$/;

/** `_evidence_to_text`: `speaker：text` per reference, joined by newlines. */
export function evidenceText(conversation: Record<string, unknown>, references: readonly string[]): string {
  return references
    .map((reference) => {
      const parts = reference.split(':');
      const sessionText = parts[0]?.replaceAll('D', '') ?? '';
      if (parts.length !== 2 || !PYTHON_INT.test(sessionText) || !PYTHON_INT.test(parts[1]!)) {
        return `[${reference}] [Parse error]`;
      }
      const turns = conversation[`session_${Number(sessionText)}`];
      const turnIndex = Number(parts[1]);
      const list = Array.isArray(turns) ? turns : [];
      if (turnIndex - 1 < 0 || turnIndex - 1 >= list.length) return `[${reference}] [Missing turn]`;
      const turn = list[turnIndex - 1] as Record<string, unknown>;
      return `${String(turn.speaker ?? 'Unknown')}\uff1a${String(turn.text ?? '')}`;
    })
    .join('\n');
}

/**
 * One Cognitive question per locomo_plus.json item i, stitched into conversation i mod n of
 * locomo10.json (`_process_locomo_plus`):
 * - question_id `<sample_id>_plus<i+1>`; question the trigger query with A/B replaced by the
 *   speakers (`Caroline: …`, one line per turn), asked at the query time (7 days after the last
 *   session);
 * - haystack: the conversation's sessions (ids, dates and turns as lme's LoCoMo loader makes them)
 *   and the cue dialogue as one session `<sample_id>_plus<i+1>_cue` at the cue time, in the
 *   stitched order; the cue session is the gold (every turn `has_answer`);
 * - answer: the official item has none; the evidence text (the cue dialogue as `Speaker：text`
 *   lines, what the official judge compares with) stands in for it.
 */
export function locomoPlusCognitiveRecords(plus: unknown, locomo: unknown): LocomoPlusRecord[] {
  if (!Array.isArray(plus) || plus.length === 0)
    throw new Error('is not a non-empty array of LoCoMo-Plus items');
  const conversations = Array.isArray(locomo) ? locomo : [locomo];
  return plus.map((raw, index) => {
    const where = `item ${index}`;
    if (!isObject(raw)) throw new Error(`${where} is not a JSON object`);
    for (const field of ['cue_dialogue', 'trigger_query', 'time_gap'] as const) {
      if (typeof raw[field] !== 'string')
        throw new Error(`${where}: field "${field}" is missing or not a string`);
    }
    const item = raw as unknown as LocomoPlusItem;
    const entry = conversations[index % conversations.length] as Record<string, unknown>;
    const conversationId = String(entry.sample_id);
    const dialog = entry.conversation as Record<string, unknown>;
    let context: StitchedContext;
    try {
      context = buildStitchedContext(item, analyzeConversation(dialog));
    } catch (error) {
      throw new Error(`${where} (stitched into conversation ${conversationId}): ${(error as Error).message}`);
    }
    checkStitched(where, item, context);
    const questionId = `${conversationId}_plus${index + 1}`;
    const cueId = `${questionId}_cue`;
    const sessions: Array<{ id: string; date: string; turns: Turn[] }> = [];
    for (const event of context.order) {
      if (event === 'query') continue;
      if (event === 'cue') {
        sessions.push({
          id: cueId,
          date: lmeDate(context.cueTime),
          turns: context.cueTurns.map((turn) => ({
            role: 'user',
            content: `${turn.speaker}: ${turn.text}`,
            has_answer: true,
          })),
        });
        continue;
      }
      const number = event + 1;
      const turns = dialog[`session_${number}`] as Array<Record<string, unknown>>;
      if (turns.length === 0) continue; // lme's LoCoMo loader leaves empty sessions out
      sessions.push({
        id: `${conversationId}_s${number}`,
        date: convertLocomoDate(dialog[`session_${number}_date_time`] as string)!,
        turns: turns.map((turn) => ({ role: 'user', content: locomoTurnContent(turn) })),
      });
    }
    const evidence = context.cueTurns
      .filter((turn) => turn.text !== '')
      .map((turn) => `${turn.speaker}\uff1a${pythonStrip(turn.text)}`)
      .join('\n');
    return {
      question_id: questionId,
      question_type: locomoPlusQuestionType(LOCOMO_PLUS_COGNITIVE),
      question: context.queryTurns.map((turn) => `${turn.speaker}: ${turn.text}`).join('\n'),
      answer: evidence,
      question_date: lmeDate(context.queryTime),
      haystack_session_ids: sessions.map((session) => session.id),
      haystack_dates: sessions.map((session) => session.date),
      haystack_sessions: sessions.map((session) => session.turns),
      answer_session_ids: [cueId],
      locomo_plus_category: LOCOMO_PLUS_COGNITIVE,
      locomo_plus_evidence: evidence,
      locomo_plus_time_gap: item.time_gap,
      locomo_plus_trigger: item.trigger_query,
    };
  });
}

/** Python's `datetime.min` and `datetime.max` (the official build_conv.py dates the cue with them). */
const PYTHON_DATETIME_RANGE = [
  new Date('0001-01-01T00:00:00Z').getTime(),
  new Date('9999-12-31T23:59:59Z').getTime(),
];

/**
 * An item that stitches into no question a judge could grade, refused in one sentence naming it
 * and the field: a `time_gap` that dates the cue outside what a date can be (`99999999999 years
 * later`: the official code's datetime overflows; lme would print NaN/NaN/NaN), a `cue_dialogue`
 * with no `A:`/`B:` line of text (the gold session would hold no turn), a `trigger_query` with
 * none (the question would be blank).
 */
function checkStitched(where: string, item: LocomoPlusItem, context: StitchedContext): void {
  const [earliest, latest] = PYTHON_DATETIME_RANGE as [number, number];
  if (!Number.isFinite(context.cueTime) || context.cueTime < earliest || context.cueTime > latest) {
    throw new Error(
      `${where}: field "time_gap" ${JSON.stringify(item.time_gap.slice(0, 80))} puts the cue outside the years 1 to 9999, which no date can show (the official build_conv.py fails on it too); write a gap such as "two months later"`,
    );
  }
  for (const [field, turns] of [
    ['cue_dialogue', context.cueTurns],
    ['trigger_query', context.queryTurns],
  ] as const) {
    if (!turns.some((turn) => turn.text.trim() !== ''))
      throw new Error(
        `${where}: field "${field}" holds no "A: …" or "B: …" line with text, so the ${field === 'cue_dialogue' ? 'cue (the question’s gold) would be a session of no turns' : 'question would be blank'}`,
      );
  }
}

/** A turn as lme's LoCoMo loader writes it: `<speaker>: <text>[ [shares <caption>]]`. */
function locomoTurnContent(turn: Record<string, unknown>): string {
  const caption = typeof turn.blip_caption === 'string' ? ` [shares ${turn.blip_caption}]` : '';
  return `${String(turn.speaker)}: ${String(turn.text)}${caption}`;
}

/** UTC milliseconds → `2023/05/08 (Mon) 13:56`. */
function lmeDate(time: number): string {
  return formatRecordDate(new Date(time));
}

function withFile<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

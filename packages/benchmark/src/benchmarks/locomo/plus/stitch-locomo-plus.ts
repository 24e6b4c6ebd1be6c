import { pythonStrip } from '../../../dataset/python-compat.js';
import { MONTH_NAMES } from '../../../dataset/record-date.js';

/*
 * How LoCoMo-Plus stitches a cognitive item into a LoCoMo conversation, reproduced from its
 * official code (xjtuleeyf/Locomo-Plus `data/build_conv.py`, commit
 * 143cdeb649231612abc3304793bb36a122f94229): the trigger query is asked 7 days after the
 * conversation's last session; the cue dialogue goes `time_gap` earlier (weeks 7 days, months 30,
 * years 365; a gap it cannot read, such as "several months later", is 0 days); both are placed
 * among the sessions by time (a stable sort: on a tie the cue follows the session), with A/B
 * replaced by the conversation's speaker_a/speaker_b. `unified_input.py` pairs item i of
 * locomo_plus.json with conversation i mod 10 of locomo10.json (build_conv.py's own `__main__`
 * draws one at random; lme uses the deterministic pairing the published evaluation used).
 */

/** One turn of the cue or trigger dialogue, speaker mapped. */
export type StitchedTurn = { speaker: string; text: string };

/** What build_context computes for one item (times as UTC milliseconds of the naive datetimes). */
export type StitchedContext = {
  speakerA: string;
  speakerB: string;
  timeGap: string;
  /** Index of the last session at or before the cue time (`cue_session_idx`), null when none. */
  cueSessionIndex: number | null;
  cueTime: number;
  queryTime: number;
  cueTurns: StitchedTurn[];
  queryTurns: StitchedTurn[];
  /** The order of events after the sort: a session index, or the cue or query dialogue. */
  order: Array<number | 'cue' | 'query'>;
};

const DAY_MS = 86_400_000;

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/** `parse_time_gap`: days back from the query to the cue ("two months later" → 60). */
export function parseTimeGap(timeGap: string): number {
  const text = pythonStrip(timeGap.toLowerCase());
  const match =
    /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an)\b\s*(week|weeks|month|months|year|years)\b/.exec(
      text,
    );
  if (!match) return 0;
  const [, number, unit] = match as unknown as [string, string, string];
  const count = /^\d+$/.test(number)
    ? Number(number)
    : number === 'a' || number === 'an'
      ? 1
      : (NUMBER_WORDS[number] ?? 0);
  if (unit.startsWith('week')) return count * 7;
  if (unit.startsWith('month')) return count * 30;
  return count * 365;
}

/** `parse_ab_dialogue`: lines starting `A:` or `B:` (after strip), others dropped. */
export function parseAbDialogue(text: string): Array<{ speaker: 'A' | 'B'; text: string }> {
  const turns: Array<{ speaker: 'A' | 'B'; text: string }> = [];
  for (const raw of text.split('\n')) {
    const line = pythonStrip(raw);
    if (line.startsWith('A:')) turns.push({ speaker: 'A', text: pythonStrip(line.slice(2)) });
    else if (line.startsWith('B:')) turns.push({ speaker: 'B', text: pythonStrip(line.slice(2)) });
  }
  return turns;
}

/** `map_speaker`: A → speaker_a, anything else → speaker_b. */
export function mapSpeakers(
  turns: ReadonlyArray<{ speaker: string; text: string }>,
  speakerA: string,
  speakerB: string,
): StitchedTurn[] {
  return turns.map((turn) => ({ speaker: turn.speaker === 'A' ? speakerA : speakerB, text: turn.text }));
}

/**
 * `datetime.strptime(s, "%I:%M %p on %d %B, %Y")` as UTC milliseconds; throws naming the text
 * when it is not such a date.
 */
export function parseLocomoSessionTime(text: string): number {
  const match = /^(\d{1,2}):(\d{1,2}) (am|pm) on (\d{1,2}) ([a-z]+), (\d{4})$/i.exec(text);
  const month = match ? MONTH_NAMES.indexOf(match[5]!.toLowerCase()) : -1;
  const hour = match ? Number(match[1]) : 0;
  if (!match || month === -1 || hour < 1 || hour > 12 || Number(match[2]) > 59) {
    throw new Error(`session date ${JSON.stringify(text)} is not like "1:56 pm on 8 May, 2023"`);
  }
  const day = Number(match[4]);
  const time = Date.UTC(
    Number(match[6]),
    month,
    day,
    (hour % 12) + (match[3]!.toLowerCase() === 'pm' ? 12 : 0),
    Number(match[2]),
  );
  if (new Date(time).getUTCDate() !== day)
    throw new Error(`session date ${JSON.stringify(text)} names no day`);
  return time;
}

/** A LoCoMo `conversation` object as read for stitching: speakers and session times. */
export type LocomoConversationTimes = { speakerA: string; speakerB: string; sessionTimes: number[] };

/** `analyze_conversation`: session_1, session_2, … until the first missing one, with their times. */
export function analyzeConversation(conversation: Record<string, unknown>): LocomoConversationTimes {
  const speakerA = conversation.speaker_a;
  const speakerB = conversation.speaker_b;
  if (typeof speakerA !== 'string' || typeof speakerB !== 'string') {
    throw new Error('field "speaker_a" or "speaker_b" is missing or not a string');
  }
  const sessionTimes: number[] = [];
  for (let index = 1; `session_${index}` in conversation; index++) {
    const date = conversation[`session_${index}_date_time`];
    if (typeof date !== 'string')
      throw new Error(`field "session_${index}_date_time" is missing or not a string`);
    sessionTimes.push(parseLocomoSessionTime(date));
  }
  if (sessionTimes.length === 0) throw new Error('holds no session_1');
  return { speakerA, speakerB, sessionTimes };
}

/** `compute_insertion`: query 7 days after the last session, cue `time_gap` before it. */
export function computeInsertion(
  sessionTimes: readonly number[],
  timeGap: string,
): { cueSessionIndex: number | null; cueTime: number; queryTime: number } {
  const queryTime = sessionTimes[sessionTimes.length - 1]! + 7 * DAY_MS;
  const cueTime = queryTime - parseTimeGap(timeGap) * DAY_MS;
  let cueSessionIndex: number | null = null;
  for (const [index, time] of sessionTimes.entries()) {
    if (time <= cueTime) cueSessionIndex = index;
    else break;
  }
  return { cueSessionIndex, cueTime, queryTime };
}

/** One LoCoMo-Plus item (an entry of locomo_plus.json), the fields stitching reads. */
export type LocomoPlusItem = { cue_dialogue: string; trigger_query: string; time_gap: string };

/** `build_context`: where the cue and the query go among the conversation's sessions. */
export function buildStitchedContext(
  item: LocomoPlusItem,
  conversation: LocomoConversationTimes,
): StitchedContext {
  const { speakerA, speakerB, sessionTimes } = conversation;
  const { cueSessionIndex, cueTime, queryTime } = computeInsertion(sessionTimes, item.time_gap);
  const events: Array<{ time: number; what: number | 'cue' | 'query' }> = sessionTimes.map((time, index) => ({
    time,
    what: index,
  }));
  events.push({ time: cueTime, what: 'cue' }, { time: queryTime, what: 'query' });
  // Array.prototype.sort is stable, as Python's list.sort (build_conv.py sorts (time, turns)
  // tuples, which on a tie would compare the turn lists and raise; no published item ties).
  events.sort((left, right) => left.time - right.time);
  return {
    speakerA,
    speakerB,
    timeGap: item.time_gap,
    cueSessionIndex,
    cueTime,
    queryTime,
    cueTurns: mapSpeakers(parseAbDialogue(item.cue_dialogue), speakerA, speakerB),
    queryTurns: mapSpeakers(parseAbDialogue(item.trigger_query), speakerA, speakerB),
    order: events.map((event) => event.what),
  };
}

/** `strftime("%Y-%m-%d %H:%M")` of a stitched time. */
export function formatStitchedTime(time: number): string {
  return new Date(time).toISOString().slice(0, 16).replace('T', ' ');
}

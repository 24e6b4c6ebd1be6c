import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../testing/run-cli.js';
import { officialLocomoPlus, runOfficialPython } from './locomo-plus-official-reference.js';
import {
  analyzeConversation,
  buildStitchedContext,
  formatStitchedTime,
  parseAbDialogue,
  parseTimeGap,
} from './stitch-locomo-plus.js';

const mini = JSON.parse(
  readFileSync(resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'), 'utf8'),
) as Array<{
  conversation: Record<string, unknown>;
}>;
const conversation = analyzeConversation(mini[0]!.conversation);

describe('parseTimeGap (build_conv.py parse_time_gap)', () => {
  it('reads weeks as 7 days, months as 30, years as 365, with digits, words, a and an', () => {
    expect(parseTimeGap('two weeks later')).toBe(14);
    expect(parseTimeGap('About three months later')).toBe(90);
    expect(parseTimeGap('a year after')).toBe(365);
    expect(parseTimeGap('an month later')).toBe(30);
    expect(parseTimeGap('18 months later')).toBe(540);
    expect(parseTimeGap('around one week after the birth')).toBe(7);
  });

  it('reads a gap without a number it knows as 0 days, as the official code does', () => {
    expect(parseTimeGap('several months later')).toBe(0);
    expect(parseTimeGap('a few weeks later')).toBe(0);
    expect(parseTimeGap('later that day')).toBe(0);
  });
});

describe('buildStitchedContext (build_conv.py build_context)', () => {
  const item = (timeGap: string) => ({
    cue_dialogue: 'A: I started learning the cello.\nnoise line\nB: Nice, keep at it.',
    trigger_query: 'A: My neighbours keep complaining about the noise.',
    time_gap: timeGap,
  });

  it('asks the query 7 days after the last session and puts the cue time_gap before it, among the sessions', () => {
    const context = buildStitchedContext(item('two months later'), conversation);
    // Last session 2 September 2023 00:30 → query 9 September; 60 days back is 11 July, after session 2.
    expect(formatStitchedTime(context.queryTime)).toBe('2023-09-09 00:30');
    expect(formatStitchedTime(context.cueTime)).toBe('2023-07-11 00:30');
    expect(context.cueSessionIndex).toBe(1);
    expect(context.order).toEqual([0, 1, 'cue', 2, 'query']);
    expect(context.cueTurns).toEqual([
      { speaker: 'Ana', text: 'I started learning the cello.' },
      { speaker: 'Ben', text: 'Nice, keep at it.' },
    ]);
    expect(context.queryTurns).toEqual([
      { speaker: 'Ana', text: 'My neighbours keep complaining about the noise.' },
    ]);
  });

  it('puts an unreadable gap right before the query, and a gap older than the conversation first', () => {
    expect(buildStitchedContext(item('several months later'), conversation).order).toEqual([
      0,
      1,
      2,
      'cue',
      'query',
    ]);
    const old = buildStitchedContext(item('one year later'), conversation);
    expect(old.cueSessionIndex).toBeNull();
    expect(old.order).toEqual(['cue', 0, 1, 2, 'query']);
  });

  it('keeps only A: and B: lines of a dialogue', () => {
    expect(parseAbDialogue('  A: hi \nC: who\nB:yo')).toEqual([
      { speaker: 'A', text: 'hi' },
      { speaker: 'B', text: 'yo' },
    ]);
  });

  it('names the field when a session date is not a LoCoMo date', () => {
    expect(() =>
      analyzeConversation({ speaker_a: 'A', speaker_b: 'B', session_1: [], session_1_date_time: 'May 8' }),
    ).toThrow('session date "May 8" is not like "1:56 pm on 8 May, 2023"');
  });
});

const official = officialLocomoPlus();

describe.skipIf('skip' in official)(
  `stitching every published item as build_conv.py does ${'skip' in official ? `(skipped: ${official.skip})` : ''}`,
  () => {
    it('gives the cue index, cue and query times, turns and dialogue of build_context for all items (item i in conversation i mod 10)', () => {
      const { dir } = official as { dir: string };
      const plus = JSON.parse(readFileSync(join(dir, 'data/locomo_plus.json'), 'utf8')) as Array<{
        cue_dialogue: string;
        trigger_query: string;
        time_gap: string;
      }>;
      const locomo = JSON.parse(readFileSync(join(dir, 'data/locomo10.json'), 'utf8')) as Array<{
        conversation: Record<string, unknown>;
      }>;
      const reference = runOfficialPython(
        dir,
        [
          'from build_conv import build_context',
          'plus = json.load(open(ROOT + "/data/locomo_plus.json"))',
          'locomo = json.load(open(ROOT + "/data/locomo10.json"))',
          'print(json.dumps([build_context(p, locomo[i % len(locomo)]) for i, p in enumerate(plus)]))',
        ].join('\n'),
      ) as Array<Record<string, unknown> & { dialogue: Array<{ speaker: string; text: string }> }>;
      expect(reference).toHaveLength(plus.length);
      plus.forEach((item, index) => {
        const dialog = locomo[index % locomo.length]!.conversation;
        const context = buildStitchedContext(item, analyzeConversation(dialog));
        const dialogue = context.order.flatMap((event) =>
          event === 'cue'
            ? context.cueTurns
            : event === 'query'
              ? context.queryTurns
              : (dialog[`session_${event + 1}`] as Array<{ speaker: string; text: string }>).map((turn) => ({
                  speaker: turn.speaker,
                  text: turn.text,
                })),
        );
        const expected = reference[index]!;
        expect({
          cue_session_idx: context.cueSessionIndex,
          cue_time: formatStitchedTime(context.cueTime),
          query_time: formatStitchedTime(context.queryTime),
          cue_turns: context.cueTurns,
          query_turns: context.queryTurns,
          dialogue,
        }).toEqual({
          cue_session_idx: expected.cue_session_idx,
          cue_time: expected.cue_time,
          query_time: expected.query_time,
          cue_turns: expected.cue_turns,
          query_turns: expected.query_turns,
          dialogue: expected.dialogue.map((turn) => ({ speaker: turn.speaker, text: turn.text })),
        });
      });
    });
  },
);

import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../config/terminal-text.js';
import { textSink } from '../testing/text-sink.js';
import { createLogger } from './logger.js';
import { createProgress, formatDuration, formatProgress } from './progress.js';

/** A progress on a fake clock writing into a string. */
function fakeProgress(interactive: boolean, unit: 'questions' | 'bytes' = 'questions') {
  const chunks: string[] = [];
  let now = 0;
  const progress = createProgress(unit === 'bytes' ? 'downloading s' : 'questions', {
    unit,
    interactive,
    now: () => now,
    stream: {
      isTTY: interactive,
      columns: 200,
      write(chunk: string) {
        chunks.push(chunk);
        return true;
      },
    } as never,
    logger: createLogger({ level: 'info', stream: textSink().stream }),
  });
  return {
    progress,
    tick: (ms: number) => {
      now += ms;
    },
    text: () => chunks.join(''),
    chunks,
  };
}

describe('progress', () => {
  it('says done of total questions, the rate and the ETA', () => {
    expect(
      formatProgress({
        label: 'questions',
        unit: 'questions',
        done: 5,
        total: 22,
        elapsedMs: 10_000,
        perSecond: 0.5,
      }),
    ).toBe('questions 5/22 (22%) · 0.50 questions/s · ETA 34 s');
    expect(
      formatProgress({
        label: 'questions',
        unit: 'questions',
        done: 22,
        total: 22,
        elapsedMs: 200_000,
        perSecond: 0.11,
      }),
    ).toBe('questions 22/22 (100%) · 0.11 questions/s · took 3 min 20 s');
    // No pace measured yet: no rate, no ETA.
    expect(
      formatProgress({ label: 'questions', unit: 'questions', done: 1, total: 22, elapsedMs: 9_000 }),
    ).toBe('questions 1/22 (4%)');
    expect(formatDuration(3 * 3600 + 125)).toBe('3 h 02 min');
  });

  it("escapes control characters in a provider's note, which may come from data or a server", () => {
    expect(
      formatProgress({
        label: 'questions',
        unit: 'questions',
        done: 1,
        total: 2,
        elapsedMs: 0,
        detail: 'server says \u001b]0;owned\u0007 hi',
      }),
    ).toBe('questions 1/2 (50%) · server says \\x1b]0;owned\\x07 hi');
  });

  // Issue 52, item 1: the first ETA said 10 min 16 s for a run of about 3 minutes.
  it('gives an ETA within 30% of the time left from the first tenth on, however long the first question took', () => {
    const { progress, tick, text } = fakeProgress(false);
    const total = 22;
    const coldStartMs = 60_000;
    const perQuestionMs = 5_000;
    progress.start(0);
    const etas: { done: number; eta: number; left: number }[] = [];
    for (let done = 1; done <= total; done++) {
      tick(perQuestionMs + (done === 1 ? coldStartMs : 0));
      progress.update(done, total);
      const line = text().trimEnd().split('\n').at(-1)!;
      const eta = /ETA (?:(\d+) min )?(\d+) s/.exec(line);
      if (line.startsWith(`questions ${done}/`) && eta) {
        etas.push({
          done,
          eta: Number(eta[1] ?? 0) * 60 + Number(eta[2]),
          left: ((total - done) * perQuestionMs) / 1000,
        });
      }
    }
    progress.stop();
    const fromFirstTenth = etas.filter(({ done }) => done >= total / 10);
    expect(fromFirstTenth.length).toBeGreaterThanOrEqual(8);
    for (const { eta, left } of fromFirstTenth) expect(Math.abs(eta - left) / left).toBeLessThanOrEqual(0.3);
    expect(text().trimEnd().split('\n').at(-1)).toBe(
      'questions 22/22 (100%) · 0.20 questions/s · took 2 min 50 s',
    );
  });

  // Issue 60, item 9: `questions 2/22 … ETA 11 s` for a run that took 4 min 55 s.
  it('gives no ETA until a tenth of the questions is done past the first, saying so, when questions finish together', () => {
    const { progress, tick, text } = fakeProgress(false);
    const total = 22;
    progress.start(0);
    tick(60_000);
    progress.update(1, total);
    tick(100); // the second question's haystack was embedded ahead: it finishes right after the first
    progress.update(2, total);
    const lines = () => text().trimEnd().split('\n');
    for (let done = 3; done <= total; done++) {
      tick(13_000);
      progress.update(done, total);
      if (done === 3) expect(lines().at(-1)).toBe('questions 3/22 (13%) · ETA once the pace is known');
      const eta = /ETA (?:(\d+) min )?(\d+) s/.exec(lines().at(-1)!);
      if (!eta) continue;
      const seconds = Number(eta[1] ?? 0) * 60 + Number(eta[2]);
      expect(done, lines().at(-1)).toBeGreaterThanOrEqual(4);
      expect(seconds, lines().at(-1)).toBeGreaterThanOrEqual(((total - done) * 13) / 2);
    }
    progress.stop();
  });

  it('prints a line every tenth of the total when piped, each with done/total, rate and ETA', () => {
    const { progress, tick, text } = fakeProgress(false);
    progress.start(0);
    for (let done = 1; done <= 22; done++) {
      tick(1000);
      progress.update(done, 22);
    }
    progress.stop();
    const lines = text().trimEnd().split('\n');
    expect(lines[0]).toBe('questions 1/22 (4%)');
    expect(lines[1]).toBe('questions 3/22 (13%) · ETA once the pace is known');
    expect(lines[2]).toBe('questions 5/22 (22%) · 1.0 questions/s · ETA 17 s');
    expect(lines.map((line) => /\d+\/22/.exec(line)![0])).toEqual([
      '1/22',
      '3/22',
      '5/22',
      '7/22',
      '9/22',
      '11/22',
      '14/22',
      '16/22',
      '18/22',
      '20/22',
      '22/22',
    ]);
    expect(lines.at(-1)).toBe('questions 22/22 (100%) · 1.0 questions/s · took 22 s');
    expect(text()).not.toContain('\r');
    expect(text()).not.toContain('\u001b');
  });

  it('prints a line every 30 s when piped, however slowly the tenths go', () => {
    const { progress, tick, text } = fakeProgress(false);
    progress.start(0);
    progress.update(1, 500);
    tick(29_000);
    progress.update(2, 500);
    tick(1_000);
    progress.update(3, 500);
    expect(text()).toBe('questions 1/500 (0%)\nquestions 3/500 (0%) · ETA once the pace is known\n');
  });

  it('redraws one line on a terminal, its cursor controls written apart from the text, and ends it on stop', () => {
    const { progress, tick, chunks } = fakeProgress(true);
    progress.start(0);
    tick(500);
    progress.update(1, 2, 'note \u001b[31mred\u001b[0m');
    tick(500);
    progress.update(2, 2, 'note');
    progress.stop();
    // What the process's stderr filter (terminalSafe) lets through unchanged: every chunk.
    for (const chunk of chunks) expect(terminalSafe(chunk)).toBe(chunk);
    const text = chunks.filter((chunk) => !chunk.startsWith('\u001b')).join('');
    expect(text).toBe(
      '[==========----------] questions 1/2 (50%) · note \\x1b[31mred\\x1b[0m' +
        '[====================] questions 2/2 (100%) · 2.0 questions/s · took 1 s · note\n',
    );
    // Each line is drawn from the start of the line, and the rest of the old one cleared.
    expect(chunks.filter((chunk) => chunk === '\u001b[1G')).toHaveLength(2);
    expect(chunks.filter((chunk) => chunk === '\u001b[0K')).toHaveLength(2);
  });

  it('counts bytes in MB for a download', () => {
    const { progress, tick, text } = fakeProgress(false, 'bytes');
    progress.start(0);
    tick(1000);
    progress.update(10e6, 100e6);
    tick(2000);
    progress.update(60e6, 100e6);
    expect(text()).toBe(
      'downloading s 10.0 MB/100.0 MB (10%)\ndownloading s 60.0 MB/100.0 MB (60%) · 25.0 MB/s · ETA 2 s\n',
    );
  });

  it('shows nothing with --quiet, on a terminal or not', () => {
    for (const interactive of [false, true]) {
      const sink = textSink();
      const progress = createProgress('questions', {
        interactive,
        stream: { ...sink.stream, isTTY: interactive },
        logger: createLogger({ level: 'error', stream: textSink().stream }),
      });
      progress.start(0);
      progress.update(1, 2);
      progress.stop();
      expect(sink.text()).toBe('');
    }
  });
});

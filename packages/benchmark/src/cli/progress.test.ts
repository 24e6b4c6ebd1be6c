import { describe, expect, it } from 'vitest';
import { textSink } from '../testing/text-sink.js';
import { createLogger } from './logger.js';
import { createProgress, formatDuration, formatProgress } from './progress.js';

/** A progress on a fake clock writing into a string. */
function fakeProgress(interactive: boolean, unit: 'questions' | 'bytes' = 'questions') {
  const sink = textSink();
  let now = 0;
  const progress = createProgress(unit === 'bytes' ? 'downloading s' : 'questions', {
    unit,
    interactive,
    now: () => now,
    stream: sink.stream,
    logger: createLogger({ level: 'info', stream: textSink().stream }),
  });
  return {
    progress,
    tick: (ms: number) => {
      now += ms;
    },
    text: sink.text,
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
        startDone: 0,
        elapsedMs: 10_000,
      }),
    ).toBe('questions 5/22 (22%) · 0.50 questions/s · ETA 34 s');
    expect(
      formatProgress({
        label: 'questions',
        unit: 'questions',
        done: 22,
        total: 22,
        startDone: 0,
        elapsedMs: 200_000,
      }),
    ).toBe('questions 22/22 (100%) · 0.11 questions/s · took 3 min 20 s');
    // A resumed run's earlier questions count in done, not in the rate.
    expect(
      formatProgress({
        label: 'questions',
        unit: 'questions',
        done: 12,
        total: 22,
        startDone: 10,
        elapsedMs: 1_000,
      }),
    ).toBe('questions 12/22 (54%) · 2.0 questions/s · ETA 5 s');
    expect(formatDuration(3 * 3600 + 125)).toBe('3 h 02 min');
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
    expect(lines[0]).toBe('questions 1/22 (4%) · 1.0 questions/s · ETA 21 s');
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
  });

  it('prints a line every 30 s when piped, however slowly the tenths go', () => {
    const { progress, tick, text } = fakeProgress(false);
    progress.start(0);
    progress.update(1, 500);
    tick(29_000);
    progress.update(2, 500);
    tick(2_000);
    progress.update(3, 500);
    expect(text()).toBe('questions 1/500 (0%)\nquestions 3/500 (0%) · 0.10 questions/s · ETA 1 h 25 min\n');
  });

  it('redraws one line on a terminal and ends it on stop', () => {
    const { progress, tick, text } = fakeProgress(true);
    progress.start(0);
    tick(500);
    progress.update(1, 2);
    tick(500);
    progress.update(2, 2);
    progress.stop();
    expect(text()).toBe(
      '\r\u001b[2Kquestions 1/2 (50%) · 2.0 questions/s · ETA 1 s\r\u001b[2Kquestions 2/2 (100%) · 2.0 questions/s · took 1 s\n',
    );
  });

  it('counts bytes in MB for a download', () => {
    const { progress, tick, text } = fakeProgress(false, 'bytes');
    progress.start(0);
    tick(2000);
    progress.update(50e6, 100e6);
    expect(text()).toBe('downloading s 50.0 MB/100.0 MB (50%) · 25.0 MB/s · ETA 2 s\n');
  });

  it('shows nothing with --quiet', () => {
    const sink = textSink();
    const progress = createProgress('questions', {
      interactive: false,
      stream: sink.stream,
      logger: createLogger({ level: 'error', stream: textSink().stream }),
    });
    progress.update(1, 2);
    progress.stop();
    expect(sink.text()).toBe('');
  });
});

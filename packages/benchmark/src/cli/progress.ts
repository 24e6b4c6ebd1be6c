import { type Logger, log } from './logger.js';

export type Progress = {
  /** Starts the clock of the rate; `done` units (a resumed run's) are already finished. */
  start(done?: number): void;
  /** `done` of `total` units finished (`total` unknown: undefined), and a short note. */
  update(done: number, total: number | undefined, detail?: string): void;
  stop(): void;
};

export type ProgressOptions = {
  /** What is counted: `questions` or `bytes` (shown as MB). */
  unit?: 'questions' | 'bytes';
  stream?: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean };
  /** Milliseconds since some fixed point; injected by tests. */
  now?: () => number;
  /** Redraw one line (a terminal) or print periodic lines (a pipe, a CI log); default: the stream's isTTY. */
  interactive?: boolean;
  /** When piped: a line each time another `everyFraction` of the total is done, or `everyMs` passed. */
  everyFraction?: number;
  everyMs?: number;
  /** Shown only when the logger shows info (not with --quiet or --log-level warn). */
  logger?: Logger;
};

/** `12.3 MB`, `22` */
function amount(unit: 'questions' | 'bytes', value: number): string {
  return unit === 'bytes' ? `${(value / 1e6).toFixed(1)} MB` : String(value);
}

/** `45 s`, `3 min 05 s`, `1 h 02 min` */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}

/** `1.3 questions/s`, `0.25 questions/s`, `4.1 MB/s` */
function formatRate(unit: 'questions' | 'bytes', perSecond: number): string {
  if (unit === 'bytes') return `${(perSecond / 1e6).toFixed(1)} MB/s`;
  return `${perSecond >= 10 ? perSecond.toFixed(0) : perSecond >= 1 ? perSecond.toFixed(1) : perSecond.toFixed(2)} questions/s`;
}

export type ProgressState = {
  label: string;
  unit: 'questions' | 'bytes';
  done: number;
  total: number | undefined;
  /** Units done at the first update (a resumed run's earlier questions), left out of the rate. */
  startDone: number;
  elapsedMs: number;
  detail?: string;
};

/**
 * One progress line: `questions 5/22 (23%) · 1.3 questions/s · ETA 13 s · note`. The rate counts
 * only what this process did; no rate or ETA before the first unit is done.
 */
export function formatProgress(state: ProgressState): string {
  const { unit, done, total } = state;
  const parts = [
    total === undefined
      ? `${state.label} ${amount(unit, done)}`
      : `${state.label} ${amount(unit, done)}/${amount(unit, total)} (${Math.floor((done / Math.max(total, 1)) * 100)}%)`,
  ];
  const worked = done - state.startDone;
  if (worked > 0 && state.elapsedMs > 0) {
    const perSecond = worked / (state.elapsedMs / 1000);
    parts.push(formatRate(unit, perSecond));
    if (total !== undefined && done < total) parts.push(`ETA ${formatDuration((total - done) / perSecond)}`);
    if (total !== undefined && done >= total) parts.push(`took ${formatDuration(state.elapsedMs / 1000)}`);
  }
  if (state.detail) parts.push(state.detail);
  return parts.join(' · ');
}

/**
 * Progress on stderr: one redrawn line on a terminal; otherwise a plain line each time another
 * tenth of the total is done or 30 s passed, and at the end, each with done/total, rate and ETA.
 */
export function createProgress(label: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const logger = options.logger ?? log;
  const interactive = options.interactive ?? stream.isTTY === true;
  const everyFraction = options.everyFraction ?? 0.1;
  const everyMs = options.everyMs ?? 30_000;
  const unit = options.unit ?? 'questions';
  let started: { at: number; done: number } | undefined;
  let lastLine: { at: number; fraction: number } | undefined;
  let drawn = false;
  let stopped = false;
  return {
    start(done = 0) {
      started = { at: now(), done };
    },
    update(done, total, detail) {
      if (stopped || !logger.shows('info')) return;
      const at = now();
      // Without start(): the clock starts at the first update, which counts as the first unit.
      started ??= { at, done };
      const line = formatProgress({
        label,
        unit,
        done,
        total,
        startDone: started.done,
        elapsedMs: at - started.at,
        detail,
      });
      if (interactive) {
        // Redraw at most ten times a second (downloads update often), and always the last one.
        if (drawn && lastLine && at - lastLine.at < 100 && done !== total) return;
        stream.write(`\r\u001b[2K${line}`);
        drawn = true;
        lastLine = { at, fraction: 0 };
        return;
      }
      const fraction = total ? done / total : 0;
      const due =
        lastLine === undefined ||
        (total !== undefined && done >= total) ||
        Math.floor(fraction / everyFraction) > Math.floor(lastLine.fraction / everyFraction) ||
        at - lastLine.at >= everyMs;
      if (!due) return;
      stream.write(`${line}\n`);
      lastLine = { at, fraction };
    },
    stop() {
      if (drawn && !stopped) stream.write('\n');
      stopped = true;
    },
  };
}

import { SingleBar } from 'cli-progress';
import { escapeControlCharacters } from '../config/terminal-text.js';
import { type Logger, log } from './logger.js';

export type Progress = {
  /** Starts the clock; `done` units (a resumed run's) are already finished. */
  start(done?: number): void;
  /** `done` of `total` units finished (`total` unknown: undefined), and a short note. */
  update(done: number, total: number | undefined, detail?: string): void;
  stop(): void;
};

/** What progress writes to: stderr, or a test's stand-in (a terminal when `isTTY`). */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };

export type ProgressOptions = {
  /** What is counted: `questions` or `bytes` (shown as MB). */
  unit?: 'questions' | 'bytes';
  stream?: ProgressStream;
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
  /** Milliseconds since start: the `took` of the last line. */
  elapsedMs: number;
  /** Units per second at the current pace; undefined until it can be measured. */
  perSecond?: number;
  /** Units finished past the first, but too few for a pace: the line says the ETA is coming. */
  measuringPace?: boolean;
  detail?: string;
};

/**
 * One progress line: `questions 5/22 (23%) · 1.3 questions/s · ETA 13 s · note`. No rate or ETA
 * before the pace is measured; the note (a provider's, from data or a server) has its control
 * characters escaped.
 */
export function formatProgress(state: ProgressState): string {
  const { unit, done, total, perSecond } = state;
  const parts = [
    total === undefined
      ? `${state.label} ${amount(unit, done)}`
      : `${state.label} ${amount(unit, done)}/${amount(unit, total)} (${Math.floor((done / Math.max(total, 1)) * 100)}%)`,
  ];
  const finished = total !== undefined && done >= total;
  if (perSecond !== undefined && perSecond > 0) {
    parts.push(formatRate(unit, perSecond));
    if (total !== undefined && !finished) parts.push(`ETA ${formatDuration((total - done) / perSecond)}`);
  } else if (state.measuringPace && total !== undefined && !finished) {
    // A number from the first few units (the first haystack's embedding, questions finishing together) misleads.
    parts.push('ETA once the pace is known');
  }
  if (finished && state.elapsedMs > 0) parts.push(`took ${formatDuration(state.elapsedMs / 1000)}`);
  if (state.detail) parts.push(escapeControlCharacters(state.detail));
  return parts.join(' · ');
}

/**
 * The units past the first finished one the pace is measured over before it is shown: a tenth of
 * the total, at least two. Two questions that finish together (the next haystack embedded ahead,
 * a LoCoMo conversation's questions after its one ingest) gave `ETA 11 s` for a 5-minute run.
 */
const paceUnits = (total: number | undefined) => Math.max(2, Math.ceil((total ?? 0) / 10));

/**
 * The pace of a run, measured from the first unit this process finished: the time before it
 * (loading a model, building the first index, a cold cache) is paid once, so counting it put the
 * ETA of a 3-minute run at 10 minutes. The whole span since then, not a recent window: questions
 * differ in size and a loaded machine in speed, and on the committed sample a window of the last
 * few questions was further off than the whole span. No pace until a tenth of the total (at least
 * two units) is done past the first.
 */
export function createPace(now: () => number) {
  let first: { at: number; done: number } | undefined;
  return {
    /** Units per second at `done` of `total`, or undefined. */
    perSecond(done: number, baseline: number, total?: number): number | undefined {
      if (done <= baseline) return undefined;
      const at = now();
      if (first === undefined) {
        first = { at, done };
        return undefined;
      }
      const seconds = (at - first.at) / 1000;
      const finished = total !== undefined && done >= total;
      if (done - first.done < paceUnits(total) && !finished) return undefined;
      return done > first.done && seconds > 0 ? (done - first.done) / seconds : undefined;
    },
  };
}

/** A 20-cell bar for the terminal line, in ASCII (any terminal, any log viewer): `[=====---------------]`. */
function bar(fraction: number): string {
  const cells = Math.round(Math.min(Math.max(fraction, 0), 1) * 20);
  return `[${'='.repeat(cells)}${'-'.repeat(20 - cells)}]`;
}

/**
 * Progress on stderr. On a terminal: one line redrawn in place by cli-progress (its cursor and
 * line controls written on their own, the text escaped). Otherwise (a pipe, a CI log): a plain line
 * each time another tenth of the total is done or 30 s passed, and at the end. With --quiet: nothing.
 */
export function createProgress(label: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const logger = options.logger ?? log;
  const interactive = options.interactive ?? stream.isTTY === true;
  const everyFraction = options.everyFraction ?? 0.1;
  const everyMs = options.everyMs ?? 30_000;
  const unit = options.unit ?? 'questions';
  const pace = createPace(now);
  let started: { at: number; done: number } | undefined;
  let latest: Omit<ProgressState, 'elapsedMs'> | undefined;
  let lastLine: { at: number; fraction: number } | undefined;
  let terminalBar: SingleBar | undefined;
  let stopped = false;
  const lineOf = () =>
    latest ? formatProgress({ ...latest, elapsedMs: now() - (started?.at ?? now()) }) : label;
  const openBar = (done: number, total: number | undefined) => {
    terminalBar = new SingleBar({
      stream: stream as NodeJS.WriteStream,
      // The line is lme's own (rate and ETA from the injected clock); cli-progress draws it.
      // No bar while the total is unknown (a download without a length).
      format: (_options, params) =>
        latest?.total === undefined ? lineOf() : `${bar(params.progress)} ${lineOf()}`,
      hideCursor: false,
      linewrap: false,
      fps: 5,
      forceRedraw: false,
    });
    terminalBar.start(total ?? 0, done);
  };
  return {
    start(done = 0) {
      started = { at: now(), done };
    },
    update(done, total, detail) {
      if (stopped || !logger.shows('info')) return;
      started ??= { at: now(), done: 0 };
      const perSecond = pace.perSecond(done, started.done, total);
      // Past the first finished unit, with no pace yet: say the ETA is coming.
      const measuringPace = perSecond === undefined && latest !== undefined && latest.done > started.done;
      latest = { label, unit, done, total, detail, perSecond, measuringPace };
      if (interactive) {
        if (!terminalBar) openBar(done, total);
        if (total !== undefined) terminalBar!.setTotal(total);
        terminalBar!.update(done);
        return;
      }
      const at = now();
      const fraction = total ? done / total : 0;
      const due =
        lastLine === undefined ||
        (total !== undefined && done >= total) ||
        Math.floor(fraction / everyFraction) > Math.floor(lastLine.fraction / everyFraction) ||
        at - lastLine.at >= everyMs;
      if (!due) return;
      stream.write(`${lineOf()}\n`);
      lastLine = { at, fraction };
    },
    stop() {
      if (stopped) return;
      stopped = true;
      terminalBar?.stop();
    },
  };
}

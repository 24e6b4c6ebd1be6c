import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type RunOverview, type RunState, readRunOverview } from './run-overview.js';

/** Folder levels searched below the given one (an ablation's variants sit one level down). */
const MAX_DEPTH = 3;

export const RUN_STATES: readonly RunState[] = ['complete', 'partial', 'failed'];

export type ListRunsOptions = {
  /** Keep runs whose dataset or benchmark is this name (`sample`, `s`, a benchmark name, a file name). */
  dataset?: string;
  state?: RunState;
  /** Keep runs started or finished at or after this time. */
  since?: Date;
};

export type ListedRuns = {
  runs: RunOverview[];
  /** One sentence per folder that looked like a run but could not be read (it is left out). */
  warnings: string[];
  /** Run folders found before the filters. */
  found: number;
};

function isRunFolder(dir: string): boolean {
  return (
    existsSync(join(dir, 'config.json')) &&
    (existsSync(join(dir, 'samples.jsonl')) || existsSync(join(dir, 'summary.json')))
  );
}

/** Run folders at or below `root`, never through a symbolic link, in name order. */
export function findRunFolders(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (isRunFolder(dir)) {
      found.push(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const path = join(dir, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory() && !stat.isSymbolicLink()) visit(path, depth + 1);
    }
  };
  visit(root, 0);
  return found;
}

/** When a run happened: its finish, else its start; null when neither is recorded. */
export function runTime(run: RunOverview): number | null {
  const time = Date.parse(run.finished_at ?? run.started_at ?? '');
  return Number.isNaN(time) ? null : time;
}

function matches(run: RunOverview, options: ListRunsOptions): boolean {
  if (options.state !== undefined && run.state !== options.state) return false;
  if (options.dataset !== undefined) {
    const wanted = options.dataset.toLowerCase();
    const file = run.dataset.replace(/^.*[\\/]/, '').toLowerCase();
    if (![run.dataset.toLowerCase(), file, run.benchmark.toLowerCase()].includes(wanted)) return false;
  }
  if (options.since !== undefined) {
    const time = runTime(run);
    if (time === null || time < options.since.getTime()) return false;
  }
  return true;
}

/**
 * Every run folder under `root` (config.json with samples.jsonl or summary.json), read, filtered
 * and ordered newest first (runs with no recorded time last, then by id). Reads only.
 */
export function listRuns(root: string, options: ListRunsOptions = {}): ListedRuns {
  const absolute = resolve(root);
  if (!existsSync(absolute)) throw new Error(`Results folder ${absolute} does not exist.`);
  if (!lstatSync(absolute).isDirectory())
    throw new Error(`${absolute} is not a folder of runs (it is a file).`);
  const warnings: string[] = [];
  const runs: RunOverview[] = [];
  const folders = findRunFolders(absolute);
  for (const dir of folders) {
    try {
      const { overview, warnings: read } = readRunOverview(dir);
      runs.push(overview);
      warnings.push(...read);
    } catch (error) {
      warnings.push(`Skipped ${dir}: ${(error as Error).message}`);
    }
  }
  const kept = runs.filter((run) => matches(run, options));
  kept.sort((left, right) => {
    const [a, b] = [runTime(left), runTime(right)];
    if (a !== b) return a === null ? 1 : b === null ? -1 : b - a;
    return left.run_id < right.run_id ? -1 : left.run_id > right.run_id ? 1 : 0;
  });
  return { runs: kept, warnings, found: folders.length };
}

/** `--since`: an ISO date or time, or a span back from `now` (`7d`, `12h`, `30m`). */
export function parseSince(value: string, now: Date = new Date()): Date {
  const span = /^(\d+)\s*([dhm])$/.exec(value.trim());
  if (span) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[span[2] as 'd' | 'h' | 'm'];
    return new Date(now.getTime() - Number(span[1]) * unit);
  }
  const time = Date.parse(value);
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) {
    throw new Error(
      `--since ${JSON.stringify(value)} is not a date (2026-11-20, 2026-11-20T08:00Z) or a span (7d, 12h, 30m).`,
    );
  }
  return new Date(time);
}

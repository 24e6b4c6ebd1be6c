import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { closeNames } from '../config/close-names.js';
import { benchmarks } from './benchmark-registry.js';

/**
 * The path of `--dataset`: a short name a benchmark knows (`Benchmark.datasets`, resolved inside
 * the data directory by that benchmark), a name `lme datasets list` shows (`Benchmark.catalog`:
 * found where the catalog puts it in the data directory, or one sentence on how to get it), or any
 * other value taken as a path (a file, or a folder a benchmark recognises). Anything else is one
 * sentence naming the known names, or the close ones ("did you mean").
 */
export function resolveDatasetPath(dataset: string, dataDir: string): string {
  const all = Object.values(benchmarks());
  const owner = all.find((benchmark) => benchmark.datasets?.names.includes(dataset));
  if (owner?.datasets) return owner.datasets.resolve(dataset, dataDir);
  const listed = all.flatMap((benchmark) => benchmark.catalog ?? []).find((entry) => entry.name === dataset);
  if (listed) {
    const found = listed.locate(dataDir);
    if (found.status === 'present') return found.path;
    const state = found.status === 'missing' ? 'is not' : `is incomplete (${found.note ?? 'files missing'})`;
    throw new Error(`Dataset "${dataset}" ${state} at ${found.path}; ${listed.get}.`);
  }
  const path = resolve(dataset);
  if (existsSync(path)) return path;
  const names = [
    ...new Set([
      ...all.flatMap((benchmark) => benchmark.datasets?.names ?? []),
      ...all.flatMap((benchmark) => (benchmark.catalog ?? []).map((entry) => entry.name)),
    ]),
  ];
  const close = [...closeNames(dataset, names), ...closePaths(path)];
  const hint = close.length > 0 ? `did you mean ${close.join(' or ')}?` : `known names: ${names.join(', ')}`;
  throw new Error(`Dataset "${dataset}" is neither a known name nor an existing file; ${hint}`);
}

/** Files beside a mistyped path whose names are close to its own (`longmemeval_s.json` → `..._s_cleaned.json.gz`). */
function closePaths(path: string): string[] {
  const folder = dirname(path);
  if (!existsSync(folder)) return [];
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  const wanted = basename(path);
  const stem = wanted.replace(/\.(json|json\.gz|gz)$/, '');
  const starts = entries.filter((entry) => stem.length >= 3 && entry.startsWith(stem));
  return [...new Set([...closeNames(wanted, entries, 3), ...starts])]
    .slice(0, 3)
    .map((entry) => join(folder, entry));
}

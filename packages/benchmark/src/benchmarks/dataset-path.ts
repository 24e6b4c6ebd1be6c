import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchmarks } from './benchmark-registry.js';

/**
 * The path of `--dataset`: a short name a benchmark knows (`Benchmark.datasets`, resolved inside
 * the data directory by that benchmark), or any other value taken as a path (a file, or a folder
 * a benchmark recognises). Throws one sentence naming the known names.
 */
export function resolveDatasetPath(dataset: string, dataDir: string): string {
  const all = Object.values(benchmarks());
  const owner = all.find((benchmark) => benchmark.datasets?.names.includes(dataset));
  if (owner?.datasets) return owner.datasets.resolve(dataset, dataDir);
  const path = resolve(dataset);
  if (!existsSync(path)) {
    const names = all.flatMap((benchmark) => benchmark.datasets?.names ?? []);
    throw new Error(
      `Dataset "${dataset}" is neither a known name (${names.join(', ')}) nor an existing file.`,
    );
  }
  return path;
}

import { join } from 'node:path';
import type { RunConfigInput } from '../config/run-config.js';
import { parseRunConfig } from '../config/run-sections.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { REPO_ROOT } from './run-cli.js';

/** Runs BM25 on the committed 22-question sample in-process; returns the run folder. */
export async function makeSampleRun(
  out: string,
  runId: string,
  config: RunConfigInput = {},
): Promise<string> {
  const { dir } = await runBenchmark(
    parseRunConfig({ dataset: 'sample', dataDir: join(REPO_ROOT, 'datasets'), out, runId, ...config }),
    { argv: ['test'] },
  );
  return dir;
}

import { join } from 'node:path';
import { parseRunConfig } from '../config/parse-run-config.js';
import type { RunConfigInput } from '../config/run-config.js';
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

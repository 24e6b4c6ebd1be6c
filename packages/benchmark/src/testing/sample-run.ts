import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunConfigInput } from '../config/run-config.js';
import { parseRunConfig } from '../config/run-sections.js';
import type { Sample } from '../results/sample.js';
import { readSamplesFile } from '../run/outputs/samples-file.js';
import { REPO_ROOT } from './run-cli.js';

/** A config over the committed 22-question sample, writing to a fresh temporary folder. */
export function sampleConfig(
  overrides: RunConfigInput = {},
  prefix = 'lme-test-',
): ReturnType<typeof parseRunConfig> {
  return parseRunConfig({
    dataset: 'sample',
    dataDir: join(REPO_ROOT, 'datasets'),
    out: mkdtempSync(join(tmpdir(), prefix)),
    ...overrides,
  });
}

/** The samples of a run folder, in file order. */
export function samplesOf(dir: string): Sample[] {
  return readSamplesFile(join(dir, 'samples.jsonl')).samples;
}

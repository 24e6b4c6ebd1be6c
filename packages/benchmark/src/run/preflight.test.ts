import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../config/parse-run-config.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { preflightRun } from './preflight.js';
import { createQaStage } from './qa-stage.js';

const SAMPLE = resolve(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sample.json.gz');
const ENVIRONMENT = { OPENAI_API_KEY: 'sk-test-preflight-1234' };

describe('reader settings', () => {
  // --reader-context turn over whole sessions: a mode the official script does not have.
  const config = parseRunConfig({
    readerModel: 'gpt-test',
    readerContext: 'turn',
    provider: 'oracle',
    out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
  });

  it('are refused by preflight, before any work, naming the flags', async () => {
    await expect(preflightRun({ config, datasetPath: SAMPLE, environment: ENVIRONMENT })).rejects.toThrow(
      /^--reader-context turn reads retrieved turns .*--provider oracle gives whole sessions/,
    );
  });

  it('are checked once: the QA stage, built after preflight, does not check them again', async () => {
    await expect(createQaStage(config, ENVIRONMENT)).resolves.toBeDefined();
  });
});

describe('the answer source', () => {
  // --answers provider from a provider that cannot answer: refused once, by preflight.
  const config = parseRunConfig({
    answers: 'provider',
    provider: 'oracle',
    out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
  });

  it('is refused by preflight, before any work', async () => {
    await expect(preflightRun({ config, datasetPath: SAMPLE, environment: ENVIRONMENT })).rejects.toThrow(
      /--answers provider/,
    );
  });

  it('is checked once: the QA stage, built after preflight, does not check it again', async () => {
    await expect(createQaStage(config, ENVIRONMENT)).resolves.toBeDefined();
  });
});

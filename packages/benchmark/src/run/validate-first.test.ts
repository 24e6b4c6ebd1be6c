import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseRunSections } from '../config/run-sections.js';
import type { Provider } from '../providers/provider.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { sampleConfig } from '../testing/sample-run.js';
import { runBenchmark } from './run-benchmark.js';
import { validatesFirst } from './selection/question-source.js';

/** The committed sample as plain JSON with its last record broken (no question text). */
function sampleWithBadLastRecord(): string {
  const records = JSON.parse(
    gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'))).toString(),
  ) as Record<string, unknown>[];
  delete records[records.length - 1]!.question;
  const path = join(mkdtempSync(join(tmpdir(), 'lme-badlast-')), 'badlast.json');
  writeFileSync(path, JSON.stringify(records));
  return path;
}

describe('a dataset with a bad last record', () => {
  it('stops a run that calls an external system before its first question, leaving no folder', async () => {
    const dataset = sampleWithBadLastRecord();
    const config = sampleConfig({
      dataset,
      provider: 'http',
      providerUrl: 'http://127.0.0.1:9',
      runId: 'badlast',
    });
    expect(validatesFirst(parseRunSections(config))).toBe(true);
    let asked = 0;
    const provider: Provider = {
      id: 'http',
      async retrieve() {
        asked++;
        throw new Error('not reached');
      },
    };
    await expect(runBenchmark(config, { argv: [], provider })).rejects.toThrow(
      /badlast\.json: question [0-9a-z_]+: field "question"/,
    );
    expect(asked).toBe(0);
    expect(existsSync(join(config.out, 'badlast'))).toBe(false);
  });

  it('is found as it streams in a BM25-only run, which keeps every question finished before it', async () => {
    const config = sampleConfig({ dataset: sampleWithBadLastRecord(), runId: 'streamed' });
    expect(validatesFirst(parseRunSections(config))).toBe(false);
    await expect(runBenchmark(config, { argv: [] })).rejects.toThrow(/field "question"/);
    const saved = readFileSync(join(config.out, 'streamed', 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(saved).toHaveLength(21);
  });
});

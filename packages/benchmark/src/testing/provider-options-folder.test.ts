import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProviderOptions, providerNamed } from '../providers/provider-registry.js';
import type { Sample } from '../results/sample.js';
import { recordRankings } from './record-rankings.js';
import { startCli } from './run-cli-async.js';
import { type StandInServer, startProviderStandIn } from './stand-in-servers.js';
import { withoutLatency } from './without-latency.js';

// A results folder lme wrote at 965e1b9, before provider options were ComponentOption records
// (fixtures/provider-options-965e1b9/README.md): its --provider-option text must read as it did then,
// and a copy must resume. The committed folder stays as lme wrote it.
const FIXTURE = join(import.meta.dirname, 'fixtures/provider-options-965e1b9/provider-options-965e1b9');

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const readSamples = (dir: string): Omit<Sample, 'latency_ms'>[] =>
  readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { latency_ms: _latency, ...rest } = JSON.parse(line) as Sample;
      return rest;
    });

let work: string;
let server: StandInServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'lme-provider-options-folder-'));
  server = await startProviderStandIn();
});

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a results folder with provider options written at 965e1b9', () => {
  it('reads its --provider-option text into the options it recorded then', () => {
    const stored = readJson(join(FIXTURE, 'config.json'));
    expect(stored.config.providerOptions).toEqual({ 'ingest-batch': '5', 'fresh-per-question': 'no' });
    expect(
      parseProviderOptions(providerNamed(stored.config.provider), stored.config.providerOptions),
    ).toEqual(stored.provider_options);
  });

  it('resumes a copy whose last question is missing: the same options, hits and metrics', {
    timeout: 120_000,
  }, async () => {
    const dir = join(work, 'resumed');
    cpSync(FIXTURE, dir, { recursive: true });
    const lines = readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'samples.jsonl'), `${lines[0]}\n`);
    recordRankings(dir);
    // Its code is 965e1b9's, so the resume is a mixed one; the stand-in listens on a new port.
    const result = await startCli(['run', '--resume', dir, '--resume-mixed', '--provider-url', server.url])
      .done;
    expect(result.stderr).toContain('1 done before');
    expect(result.status).toBe(0);
    expect(readSamples(dir)).toEqual(readSamples(FIXTURE));
    const resumed = readJson(join(dir, 'config.json'));
    const written = readJson(join(FIXTURE, 'config.json'));
    expect(resumed.config.providerOptions).toEqual(written.config.providerOptions);
    expect(resumed.provider_options).toEqual(written.provider_options);
    expect(withoutLatency(readJson(join(dir, 'summary.json')).metrics)).toEqual(
      withoutLatency(readJson(join(FIXTURE, 'summary.json')).metrics),
    );
  });
});

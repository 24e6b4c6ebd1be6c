import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { type StarterServer, startStarter } from '../testing/starter-server.js';

const STARTER = join(REPO_ROOT, 'examples/starter-server.py');
let server: StarterServer | undefined;

afterEach(() => {
  server?.stop();
  server = undefined;
});

describe('examples/starter-server.py', () => {
  it('is under 80 lines of the standard library only', () => {
    const text = readFileSync(STARTER, 'utf8');
    expect(text.trimEnd().split('\n').length).toBeLessThan(80);
    const modules = [...text.matchAll(/^(?:import ([\w., ]+)|from (\S+) import)/gm)].flatMap((match) =>
      (match[1] ?? match[2]!).split(',').map((name) => name.trim().split('.')[0]),
    );
    expect(modules).toEqual(['argparse', 'json', 're', 'http']);
  });

  it('runs the sample through lme run --provider http, graded like any provider', async () => {
    server = await startStarter();
    const url = server.url;
    const out = mkdtempSync(join(tmpdir(), 'lme-starter-'));
    const result = await startCli([
      'run',
      '-d',
      'sample',
      '--provider',
      'http',
      '--provider-url',
      url,
      '--limit',
      '4',
      '--out',
      out,
      '--run-id',
      'starter',
    ]).done;
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const dir = join(out, 'starter');
    const samples = readFileSync(join(dir, 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Sample);
    expect(samples).toHaveLength(4);
    expect(samples.every((sample) => sample.error === null && sample.hits.length > 0)).toBe(true);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    expect(summary.provider).toMatchObject({ kind: 'http', name: 'starter-server', version: '1' });
    // Word overlap finds the evidence of most sample questions in its top five sessions.
    expect(summary.metrics.overall.metrics['session.recall_any@5']).toBeGreaterThan(0.5);
    expect(summary.ingest).toMatchObject({ ingests: 4, shared: 0 });
  });
});

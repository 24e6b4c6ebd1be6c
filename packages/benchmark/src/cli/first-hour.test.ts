import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, REPO_ROOT, runCli } from '../testing/run-cli.js';

/**
 * What a new user meets in their first hour, through the real CLI: the run's own lines on stderr
 * (dataset before progress, progress with done/total, rate and ETA), --quiet, --config,
 * `lme presets`, `lme datasets verify` with nothing to verify, and --output.
 */
const out = mkdtempSync(join(tmpdir(), 'lme-first-hour-'));
let run: CliResult;

beforeAll(() => {
  run = runCli(['run', '-d', 'sample', '--out', out, '--run-id', 'piped']);
}, 120_000);

describe('lme run, piped', () => {
  it('names the questions it read before the run starts, then progress with done/total, rate and ETA', () => {
    expect(run.status).toBe(0);
    const lines = run.stderr.split('\n');
    const read = lines.findIndex((line) =>
      /^read 22 questions from .*longmemeval_s_sample\.json\.gz$/.test(line),
    );
    const firstProgress = lines.findIndex((line) => line.startsWith('questions '));
    expect(read).toBeGreaterThanOrEqual(0);
    expect(firstProgress).toBeGreaterThan(read);
    const progress = lines.filter((line) => line.startsWith('questions '));
    for (const line of progress.slice(1, -1))
      expect(line).toMatch(
        /^questions \d+\/22 \(\d+%\) · ([\d.]+ questions\/s · ETA \d+ (s|min \d+ s)|ETA once the pace is known)$/,
      );
    expect(progress.at(-1)).toMatch(/^questions 22\/22 \(100%\) · [\d.]+ questions\/s · took \d+ s$/);
    expect(progress.length).toBeLessThanOrEqual(12);
    expect(run.stdout).toContain(`results: ${join(out, 'piped')}`);
  });
});

describe('lme run --quiet and --config', () => {
  it('--quiet prints nothing on stderr and the results on stdout; a config file sets the run', () => {
    const config = join(out, 'run.yaml');
    writeFileSync(config, 'dataset: sample\nlimit: 0.25\nlabel: from-yaml\n');
    const quiet = runCli(['run', '--config', config, '--out', out, '--run-id', 'quiet', '-q']);
    expect(quiet.stderr).toBe('');
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toContain(`results: ${join(out, 'quiet')}`);
    const manifest = JSON.parse(readFileSync(join(out, 'quiet', 'config.json'), 'utf8'));
    expect([manifest.config.limit, manifest.config.label]).toEqual([0.25, 'from-yaml']);
    expect(
      readFileSync(join(out, 'quiet', 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(6);
  });

  it('refuses an unknown key of a config file in one sentence, with the closest name, before any run', () => {
    const config = join(out, 'typo.yaml');
    writeFileSync(config, 'dataset: sample\ntopSession: 3\n');
    const refused = runCli(['run', '--config', config, '--out', out, '--run-id', 'typo']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(`lme: ${config}: unknown key "topSession" (close names: topSessions).\n`);
    expect(existsSync(join(out, 'typo'))).toBe(false);
  });
});

describe('the lme command', () => {
  it('is linked by pnpm install at the workspace root (pnpm exec lme, npx lme), as in a global link', () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    const benchmark = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/benchmark/package.json'), 'utf8'));
    expect(root.devDependencies['@lme/benchmark']).toBe('workspace:*');
    expect(benchmark.bin).toEqual({ lme: './bin/lme.js' });
    expect(readFileSync(join(REPO_ROOT, 'packages/benchmark/bin/lme.js'), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    );
    expect(existsSync(join(REPO_ROOT, 'node_modules/.bin/lme'))).toBe(true);
  });
});

describe('discovery and outputs', () => {
  it('lme presets names each preset, what it runs and its measured figure on S', () => {
    const presets = runCli(['presets']);
    expect(presets.status).toBe(0);
    expect(presets.stdout).toMatch(
      /^bm25-official +The official LongMemEval retriever: .*\n +on S: session recall_all@5 0\.7697/m,
    );
    expect(presets.stdout).toMatch(/^multi-route +.*\n +on S: not measured/m);
  });

  it('lme datasets verify fails (exit 1) when there is nothing to verify or a named file is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'lme-empty-data-'));
    const all = runCli(['datasets', 'verify', '--data-dir', empty]);
    expect(all.status).toBe(1);
    expect(all.stdout).toContain('s: MISSING');
    expect(all.stderr).toBe(
      `lme: no dataset file in ${empty} to verify; \`lme datasets download s\` fetches one.\n`,
    );
    const named = runCli(['datasets', 'verify', 'oracle', '--data-dir', empty]);
    expect(named.status).toBe(1);
  });

  it('lme compare writes --output (-o); --out still works for one release, with a warning', () => {
    const dir = join(out, 'piped');
    const output = runCli(['compare', dir, dir, '-o', join(out, 'cmp.md'), '-q']);
    expect(output.status).toBe(0);
    expect(readFileSync(join(out, 'cmp.md'), 'utf8')).toBe(output.stdout);
    const deprecated = runCli(['compare', dir, dir, '--out', join(out, 'old.md')]);
    expect(deprecated.status).toBe(0);
    expect(readFileSync(join(out, 'old.md'), 'utf8')).toBe(deprecated.stdout);
    expect(deprecated.stderr).toContain('lme: warning: lme compare --out <file> is deprecated');
  });
});

import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';
import type { RunManifest } from './outputs/run-manifest.js';

/**
 * Issue 50 H5: `--resume` compares the setup the run's questions were made under (config.json
 * `setup`, written when the run starts) with the one it would continue under, and refuses a change
 * in one sentence naming it, or continues under `--resume-mixed` and records the run as mixed.
 */
describe('lme run --resume after the setup changed', () => {
  let crashed: string;
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'lme-resume-setup-'));
    const result = runCli([
      'run',
      '--dataset',
      'sample',
      '--preset',
      'bm25',
      '--bm25-k1',
      '1.5',
      '--limit',
      '6',
      '--out',
      root,
      '--run-id',
      'base',
    ]);
    if (result.status !== 0) throw new Error(result.stderr);
    // A crash after 2 questions: the first lines kept, no finish time or fingerprint yet.
    crashed = join(root, 'crashed');
    cpSync(join(root, 'base'), crashed, { recursive: true });
    const lines = readFileSync(join(crashed, 'samples.jsonl'), 'utf8').split('\n');
    writeFileSync(join(crashed, 'samples.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
    editManifest(crashed, (manifest) => {
      manifest.run_id = 'crashed';
      manifest.config.runId = 'crashed';
      delete manifest.finished_at;
      delete manifest.fingerprint;
    });
  }, 120_000);

  /** A copy of the crashed run with its config.json changed by `edit`. */
  function copyWith(name: string, edit: (manifest: RunManifest) => void): string {
    const dir = join(root, name);
    cpSync(crashed, dir, { recursive: true });
    editManifest(dir, edit);
    return dir;
  }

  it('records the setup when the run starts', () => {
    const manifest = readManifestFile(join(root, 'base'));
    expect(manifest.setup?.settings).toMatchObject({ bm25K1: 1.5, retriever: 'bm25' });
    expect(manifest.setup?.config).toBe(manifest.fingerprint?.config);
    expect(manifest.setup?.code).toBe(manifest.fingerprint?.code);
  });

  it('refuses a resume after a hand edit of config.json, naming the setting and both values', () => {
    const dir = copyWith('edited', (manifest) => {
      manifest.config.bm25K1 = 0.2;
    });
    const result = runCli(['run', '--resume', dir]);
    expect(result.status).toBe(1);
    const message = result.stderr.trim().split('\n').at(-1)!;
    expect(message).toBe(
      `lme: Cannot resume ${dir}: its questions were made under another setup (settings bm25K1 1.5 -> 0.2); resume under that setup, start a new run, or pass --resume-mixed to continue and record the run as mixed.`,
    );
    expect(readFileSync(join(dir, 'samples.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('refuses a resume after a code change, naming the source hash, commit and package version', () => {
    const dir = copyWith('recoded', (manifest) => {
      manifest.setup!.code = 'a'.repeat(64);
      manifest.setup!.git_commit = 'b'.repeat(40);
      manifest.setup!.versions['@lme/benchmark'] = '0.0.1';
    });
    const result = runCli(['run', '--resume', dir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /its questions were made under another setup \(code \(source aaaaaaaaaaaa… -> [0-9a-f]{12}…; git bbbbbbbbbb -> [0-9a-f]{10}; @lme\/benchmark 0\.0\.1 -> [^)]+\)\); resume under that setup/,
    );
  });

  it('continues under --resume-mixed and records both setups in config.json and summary.json', () => {
    const dir = copyWith('mixed', (manifest) => {
      manifest.config.bm25K1 = 0.2;
    });
    const result = runCli(['run', '--resume', dir, '--resume-mixed']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `continuing ${dir} under another setup (settings bm25K1 1.5 -> 0.2): the run is recorded as mixed (--resume-mixed).`,
    );
    const manifest = readManifestFile(dir);
    expect(manifest.mixed?.map((setup) => setup.changes)).toEqual([[], ['settings bm25K1 1.5 -> 0.2']]);
    expect(manifest.mixed?.[0]?.setup.settings).toMatchObject({ bm25K1: 1.5 });
    expect(manifest.setup?.settings).toMatchObject({ bm25K1: 0.2 });
    expect(manifest.fingerprint?.mixed).toBe(true);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.mixed).toEqual({ setups: 2, changes: ['settings bm25K1 1.5 -> 0.2'] });
  });

  it('resumes an unchanged setup as before', () => {
    const dir = copyWith('same', () => {});
    const result = runCli(['run', '--resume', dir]);
    expect(result.status, result.stderr).toBe(0);
    expect(readManifestFile(dir).mixed).toBeUndefined();
  });
});

function readManifestFile(dir: string): RunManifest {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as RunManifest;
}

function editManifest(dir: string, edit: (manifest: RunManifest) => void): void {
  const manifest = readManifestFile(dir);
  edit(manifest);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest, null, 2));
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mountTmpfs, unmountTmpfs } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

/** A real full disk: a tmpfs of `kilobytes` (needs root; elsewhere the tests skip and say why). */
const mountSmallDisk = (kilobytes: number) => mountTmpfs(`size=${kilobytes}k`);

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) unmountTmpfs(dir);
});

const RUN = ['run', '--dataset', 'sample', '--preset', 'bm25-official', '--run-id', 'full'];

describe('a full disk', () => {
  it('mid-run: one sentence naming the file, lock released, no torn line, the gate refuses', (context) => {
    const disk = mountSmallDisk(64);
    if ('skip' in disk) return context.skip(disk.skip);
    mounted.push(disk.dir);
    const result = runCli([...RUN, '--out', disk.dir]);
    const dir = join(disk.dir, 'full');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `\\nlme: No space left on the disk holding ${dir}/samples\\.jsonl \\(ENOSPC\\); free space, then continue the run with lme run --resume ${dir}\\.\\n$`,
      ),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, '.lme-run.lock'))).toBe(false);
    const lines = readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const gate = runCli(['gate', dir, '--min', 'session.recall_any@5>=0']);
    expect(gate.status).not.toBe(0);
  }, 60_000);

  it('at the end: no end-of-run file is left torn, and the gate refuses the run', (context) => {
    // samples.jsonl (165 kB), config.json and the lock fit; summary.json does not.
    const disk = mountSmallDisk(176);
    if ('skip' in disk) return context.skip(disk.skip);
    mounted.push(disk.dir);
    const result = runCli([...RUN, '--out', disk.dir]);
    const dir = join(disk.dir, 'full');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /\nlme: No space left on the disk holding .*\(ENOSPC\); free space, then continue/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    for (const name of ['summary.json', 'config.json']) {
      const path = join(dir, name);
      if (existsSync(path)) expect(() => JSON.parse(readFileSync(path, 'utf8')), name).not.toThrow();
    }
    for (const name of ['summary.csv', 'samples.csv']) {
      const path = join(dir, name);
      if (existsSync(path)) expect(readFileSync(path, 'utf8').endsWith('\n'), name).toBe(true);
    }
    expect(existsSync(join(dir, '.lme-run.lock'))).toBe(false);
    const gate = runCli(['gate', dir, '--min', 'session.recall_any@5>=0']);
    expect(gate.status).not.toBe(0);
  }, 60_000);
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_LIMITS, readGuardedJsonFile, readGuardedTextFile } from './read-guarded-file.js';

const folder = () => mkdtempSync(join(tmpdir(), 'lme-guarded-'));

describe('readGuardedTextFile', () => {
  it('reads a regular UTF-8 file whole', () => {
    const path = join(folder(), 'summary.json');
    writeFileSync(path, '{"run_id":"é"}');
    expect(readGuardedJsonFile(path, { maxBytes: READ_LIMITS.summary })).toEqual({ run_id: 'é' });
  });

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    const path = join(folder(), 'summary.json');
    execFileSync('mkfifo', [path]);
    expect(() => readGuardedTextFile(path, { maxBytes: READ_LIMITS.summary })).toThrow(
      `${path} is not a regular file (a device, a pipe or a socket); lme reads this from a regular file.`,
    );
  });

  it('refuses a link it did not make (to /dev/zero or to a real file), and a device named directly', () => {
    const dir = folder();
    const real = join(dir, 'real.json');
    writeFileSync(real, '{}');
    symlinkSync('/dev/zero', join(dir, 'config.json'));
    symlinkSync(real, join(dir, 'summary.json'));
    for (const name of ['config.json', 'summary.json']) {
      expect(() => readGuardedTextFile(join(dir, name), { maxBytes: READ_LIMITS.config })).toThrow(
        `${join(dir, name)} is a symbolic link; lme does not follow links in a results folder that it did not make (copy the file in its place).`,
      );
    }
    expect(readGuardedTextFile(join(dir, 'summary.json'), { maxBytes: 10, links: 'follow' })).toBe('{}');
    expect(() =>
      readGuardedTextFile(join(dir, 'config.json'), { maxBytes: 10, links: 'follow', what: '--config x' }),
    ).toThrow('--config x is not a regular file (a device, a pipe or a socket)');
  });

  it('refuses a file larger than its limit before reading it, naming the file and the limit', () => {
    const path = join(folder(), 'summary.json');
    writeFileSync(path, '');
    truncateSync(path, READ_LIMITS.summary + 1);
    expect(() => readGuardedTextFile(path, { maxBytes: READ_LIMITS.summary })).toThrow(
      `${path} holds more than 64 MB, the most lme reads of such a file; lme never writes one this large (check the path).`,
    );
  });

  it('refuses a folder, a missing file, bytes that are not UTF-8 and text that is not JSON', () => {
    const dir = folder();
    mkdirSync(join(dir, 'samples.jsonl'));
    expect(() => readGuardedTextFile(join(dir, 'samples.jsonl'), { maxBytes: 10 })).toThrow(
      `${join(dir, 'samples.jsonl')} is a folder; lme reads this from a regular file.`,
    );
    expect(() => readGuardedTextFile(join(dir, 'none.json'), { maxBytes: 10 })).toThrow(
      `${join(dir, 'none.json')} cannot be read (ENOENT).`,
    );
    writeFileSync(join(dir, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
    expect(() => readGuardedTextFile(join(dir, 'latin1.json'), { maxBytes: 10 })).toThrow(
      'byte 1 (0xe9) is not UTF-8',
    );
    writeFileSync(join(dir, 'torn.json'), '{"a":');
    expect(() => readGuardedJsonFile(join(dir, 'torn.json'), { maxBytes: 10, what: 'Gate file g' })).toThrow(
      /^Gate file g is not valid JSON \(/,
    );
  });
});

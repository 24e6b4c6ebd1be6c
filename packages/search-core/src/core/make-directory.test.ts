import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSegmentFile } from '../embedding/disk-cache/segment-store.js';
import { makeDirectory, makeDirectorySync } from './make-directory.js';

describe.each([
  ['makeDirectory', makeDirectory],
  ['makeDirectorySync', async (dir: string) => makeDirectorySync(dir)],
])('%s', (_name, make) => {
  it('creates the missing levels, and is a no-op on an existing folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lme-mkdir-'));
    const deep = join(root, 'a', 'b', 'c');
    await make(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await make(deep);
    await make(root);
  });

  it('fails on a path under a file, naming the level', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lme-mkdir-'));
    writeFileSync(join(root, 'file'), '');
    await expect(make(join(root, 'file', 'x'))).rejects.toThrow(/file/);
  });

  // Node's recursive mkdir never returns here (the parent exists but refuses children with ENOENT).
  it.skipIf(!existsSync('/proc/self'))('fails at once under /proc instead of looping', async () => {
    await expect(make('/proc/lme-no-such-folder/cache')).rejects.toThrow(
      'cannot create /proc/lme-no-such-folder (ENOENT)',
    );
  });
});

describe.skipIf(!existsSync('/proc/self'))('a cache folder under /proc', () => {
  it('makes the embedding cache fail at once instead of looping in mkdir', async () => {
    await expect(
      writeSegmentFile('/proc/lme-no-such-cache/embeddings/x', Buffer.from('x')),
    ).rejects.toMatchObject({
      code: 'ENOENT',
      message: 'cannot create /proc/lme-no-such-cache (ENOENT)',
    });
  });
});

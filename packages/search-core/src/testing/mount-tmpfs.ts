import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real small or read-only disk for a test: a tmpfs mounted with `options` (`size=64k`,
 * `ro,size=64k`). Needs root (mount); elsewhere it returns why, for `context.skip`. Unmount with
 * `unmountTmpfs`.
 */
export function mountTmpfs(options: string): { dir: string } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lme-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs (${(error as Error).message.split('\n')[0]}); run as root` };
  }
}

export function unmountTmpfs(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

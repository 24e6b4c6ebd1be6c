import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBridgeStore } from './bridge-store.js';

describe('a bridge store', () => {
  it('is a new folder for each bridge process, so two runs on one cache never share one', async () => {
    const workDir = join(mkdtempSync(join(tmpdir(), 'lme-store-')), 'providers', 'mem0');
    const [first, second] = await Promise.all([
      makeBridgeStore(workDir, 'mem0'),
      makeBridgeStore(workDir, 'mem0'),
    ]);
    expect(first).not.toBe(second);
    expect(readdirSync(workDir).sort()).toEqual(
      [first, second].map((path) => path.slice(workDir.length + 1)).sort(),
    );
    expect(readdirSync(first)).toEqual([]);
  });

  it("removes what a crashed bridge's run left on this machine, never a running one's or another machine's", async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'lme-store-'));
    const host = hostname().replace(/[^A-Za-z0-9_.-]/g, '_');
    // The id of a process that has ended (a child run to completion).
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    const crashed = join(workDir, `mempalace-${host}-${ended}-abc`);
    const live = join(workDir, `mempalace-${host}-${process.pid}-def`);
    const elsewhere = join(workDir, `mempalace-other-host-${ended}-ghi`);
    for (const path of [crashed, live, elsewhere]) mkdirSync(join(path, 'palace'), { recursive: true });
    const store = await makeBridgeStore(workDir, 'mempalace');
    expect(existsSync(crashed)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(elsewhere)).toBe(true);
    expect(readdirSync(store)).toEqual([]);
  });
});

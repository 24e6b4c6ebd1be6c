import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Whether a process with this id runs on this machine (one that is not ours counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A name safe in a folder name: the host's, for stores of one cache shared by several machines. */
const HOST = hostname().replace(/[^A-Za-z0-9_.-]/g, '_') || 'host';

/**
 * A new, empty store folder for one bridge process under `workDir` (`<name>-<host>-<pid>-<random>`),
 * so two runs (or two bridges of one run) never share one and none reads what another left. The
 * folders this machine's processes left when they crashed (their process no longer runs) are
 * removed first; a folder of another machine, or of a process still running, is left alone.
 */
export async function makeBridgeStore(workDir: string, name: string): Promise<string> {
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const prefix = `${name}-${HOST}-`;
  for (const entry of await readdir(workDir)) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(entry.slice(prefix.length))?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !running(pid))
      await rm(join(workDir, entry), { recursive: true, force: true });
  }
  return mkdtemp(join(workDir, `${prefix}${process.pid}-`));
}

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bridgePaths, bridgesDir } from './bridge-catalog.js';
import { type BridgeMemory, type BridgeMemoryOptions, createBridgeProcessMemory } from './bridge-memory.js';

/** What `lme bridges list` shows of a bridge's last run: its processes' peak resident memory. */
export const LAST_RUN_FILE = 'last-run.json';
export type BridgeLastRun = { processes: number; peak_rss_mb: number[]; finished_at: string };

/**
 * The bridge as the run drives it: `dependencies.processes` bridge processes (the run's
 * `--concurrency`), each with its own store. A namespace goes to the process with the fewest calls
 * in flight when it is first seen and stays there, so its ingest and searches meet the same
 * store. Which process that is depends on timing, and must not change a ranking: each bridge keeps
 * a namespace in a store of its own (bridges.test.ts checks it with exact ties). On close each process's peak resident
 * memory is written to the bridge's `last-run.json` for `lme bridges list`.
 */
export function createBridgeMemory(
  options: BridgeMemoryOptions,
  startMember: (options: BridgeMemoryOptions) => BridgeMemory = createBridgeProcessMemory,
): BridgeMemory {
  const size = Math.max(1, options.dependencies.processes ?? 1);
  const members = Array.from({ length: size }, () => startMember(options));
  const inFlight = members.map(() => 0);
  const owner = new Map<string, number>();

  const memberOf = (namespace: string): number => {
    let index = owner.get(namespace);
    if (index === undefined) {
      index = inFlight.indexOf(Math.min(...inFlight));
      owner.set(namespace, index);
    }
    return index;
  };
  /** Each process's peak resident memory; undefined if one cannot say. */
  const memberPeaks = async (): Promise<number[] | undefined> => {
    const peaks = await Promise.all(members.map((member) => member.peakRssBytes()));
    return peaks.some((peak) => peak === undefined) ? undefined : (peaks as number[]);
  };
  const call = async <T>(namespace: string, work: (memory: BridgeMemory) => Promise<T>): Promise<T> => {
    const index = memberOf(namespace);
    inFlight[index]!++;
    try {
      return await work(members[index]!);
    } finally {
      inFlight[index]!--;
    }
  };

  return {
    identity: () => members[0]!.identity(),
    unavailable: () => members.map((member) => member.unavailable?.()).find((reason) => reason !== undefined),
    process: () => members[0]!.process(),
    async peakRssBytes() {
      const peaks = await memberPeaks();
      return peaks && Math.max(...peaks);
    },
    async preflight(callOptions) {
      await Promise.all(members.map((member) => member.preflight(callOptions)));
    },
    reset: (namespace, callOptions) => call(namespace, (memory) => memory.reset(namespace, callOptions)),
    ingest: (namespace, sessions, callOptions) =>
      call(namespace, (memory) => memory.ingest(namespace, sessions, callOptions)),
    search: (request, callOptions) =>
      call(request.namespace, (memory) => memory.search(request, callOptions)),
    async close() {
      const peaks = await memberPeaks();
      await Promise.all(members.map((member) => member.close?.()));
      if (peaks === undefined) return;
      const record: BridgeLastRun = {
        processes: size,
        peak_rss_mb: peaks.map((peak) => Math.round(peak / 2 ** 20)),
        finished_at: new Date().toISOString(),
      };
      const folder = bridgePaths(bridgesDir(options.dependencies.environment), options.name).folder;
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, LAST_RUN_FILE), `${JSON.stringify(record)}\n`).catch(() => undefined);
    },
  };
}

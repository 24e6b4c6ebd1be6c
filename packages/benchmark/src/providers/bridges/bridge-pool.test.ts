import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExternalSearchRequest } from '../external/external-memory.js';
import { bridgePaths } from './bridge-catalog.js';
import type { BridgeMemory, BridgeMemoryOptions } from './bridge-memory.js';
import { type BridgeLastRun, createBridgeMemory, LAST_RUN_FILE } from './bridge-pool.js';

/** A stand-in bridge process: records which namespaces it was given, holds its ingest until released. */
function standIn(peakMb: number) {
  const seen: string[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const member = {
    identity: () => ({ kind: 'mem0', url: 'stand-in' }),
    preflight: async () => {},
    reset: async (namespace: string) => void seen.push(`reset ${namespace}`),
    ingest: async (namespace: string) => {
      seen.push(`ingest ${namespace}`);
      await held;
      return {};
    },
    search: async (request: ExternalSearchRequest) => {
      seen.push(`search ${request.namespace}`);
      return { hits: [] };
    },
    process: async () => {
      throw new Error('no process');
    },
    peakRssBytes: async () => peakMb * 2 ** 20,
    close: async () => {},
  } as unknown as BridgeMemory;
  return { member, seen, release };
}

const search = (namespace: string): ExternalSearchRequest => ({
  namespace,
  query: 'q',
  topK: 5,
  granularity: 'session',
});

describe('createBridgeMemory (a pool of bridge processes, lme run -j N)', () => {
  it('gives a new namespace to the least busy process and keeps each namespace on its process', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lme-pool-'));
    const made = [standIn(700), standIn(812)];
    let next = 0;
    const options: BridgeMemoryOptions = {
      name: 'mem0',
      args: () => [],
      dependencies: {
        environment: { LME_BRIDGES_DIR: root },
        timeoutMs: 1000,
        maxRetries: 0,
        workDir: root,
        processes: 2,
      },
    };
    const pool = createBridgeMemory(options, () => made[next++]!.member);
    // a keeps process 0 busy, so b goes to process 1, and c, while a is still in flight, to
    // process 1 again; each namespace's search meets its own ingest.
    const a = pool.ingest('a', []);
    const b = pool.ingest('b', []);
    made[1]!.release();
    await b;
    await pool.ingest('c', []);
    await pool.search(search('b'));
    made[0]!.release();
    await a;
    await pool.search(search('a'));
    expect(made[0]!.seen).toEqual(['ingest a', 'search a']);
    expect(made[1]!.seen).toEqual(['ingest b', 'ingest c', 'search b']);
    // Closing records each process's peak memory for `lme bridges list`.
    await pool.close?.();
    const last = JSON.parse(
      readFileSync(join(bridgePaths(root, 'mem0').folder, LAST_RUN_FILE), 'utf8'),
    ) as BridgeLastRun;
    expect(last).toMatchObject({ processes: 2, peak_rss_mb: [700, 812] });
  });
});

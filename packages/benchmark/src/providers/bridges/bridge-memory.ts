import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExternalMemory } from '../external/external-memory.js';
import type { ExternalMemoryDependencies } from '../external/external-memory-descriptor.js';
import { createHttpMemory } from '../http/http-memory.js';
import { BRIDGE_SOURCE_DIR, BRIDGES, type BridgeName, bridgePaths, bridgesDir } from './bridge-catalog.js';
import { type BridgeProcess, startBridge } from './bridge-process.js';
import { makeBridgeStore } from './bridge-store.js';
import { type InstallManifest, readInstalledBridge } from './install-bridge.js';

/**
 * Variables a bridge inherits: enough to run Python, and MemPalace's ONNX thread count (unset,
 * onnxruntime takes every core; the tests set one, beside the other test worker), never a
 * credential of lme's environment.
 */
const PASSED_VARIABLES = [
  'PATH',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'SYSTEMROOT',
  'MEMPALACE_EMBEDDING_THREADS',
] as const;

/** The least time one call to a bridge is given (`--provider-timeout` may raise it). */
export const BRIDGE_CALL_TIMEOUT_MS = 30 * 60_000;

/**
 * The bridge's embedding cache (bridges/embedding_cache.py): one folder beside the stores, shared by
 * every run and shard on this cache dir (never a store: makeBridgeStore leaves it alone), unless
 * `LME_BRIDGE_EMBEDDING_CACHE=0` turns it off. The rankings are the same either way.
 */
function embeddingCacheArgs(dependencies: ExternalMemoryDependencies): string[] {
  if (dependencies.environment.LME_BRIDGE_EMBEDDING_CACHE === '0') return [];
  return ['--embedding-cache', join(dependencies.workDir, BRIDGE_EMBEDDINGS_FOLDER)];
}

/** The embedding cache's folder under a bridge's work folder. */
export const BRIDGE_EMBEDDINGS_FOLDER = 'embeddings';

export type BridgeMemory = ExternalMemory & {
  /** The running bridge (started on first use; of a pool, its first process). */
  process(): Promise<BridgeProcess>;
  /** Its peak resident memory in bytes, undefined when it never started or cannot be read. */
  peakRssBytes(): Promise<number | undefined>;
};

export type BridgeMemoryOptions = {
  name: BridgeName;
  /** The bridge's own arguments (besides --port and --work-dir), from its install manifest. */
  args(manifest: InstallManifest): string[];
  dependencies: ExternalMemoryDependencies;
  /** How long the bridge may take to start. */
  startTimeoutMs?: number;
};

/**
 * An external memory system lme runs itself: on first use (normally the run's preflight) the
 * installed bridge starts as a child process (bridge-process.ts: in a network namespace where the
 * machine allows one), with a store of its own in a new folder under the provider's work folder
 * (bridge-store.ts); calls then go to it over the provider protocol; `close` stops it and removes
 * its store. A bridge that is not installed fails with one sentence naming `lme bridges install <name>`.
 */
export function createBridgeProcessMemory(options: BridgeMemoryOptions): BridgeMemory {
  const { name, dependencies } = options;
  const root = bridgesDir(dependencies.environment);
  let running: Promise<{ bridge: BridgeProcess; memory: ExternalMemory }> | undefined;
  let current: ExternalMemory | undefined;
  let closed = false;
  let store: string | undefined;
  let socketDir: string | undefined;
  let isolation: string | undefined;
  let child: BridgeProcess | undefined;

  const start = () => {
    running ??= (async () => {
      const manifest = await readInstalledBridge(root, name);
      const environment: NodeJS.ProcessEnv = {};
      for (const key of PASSED_VARIABLES) {
        const value = dependencies.environment[key];
        if (value !== undefined) environment[key] = value;
      }
      // This bridge process's own store: never another run's, never what a crashed run left.
      store = await makeBridgeStore(dependencies.workDir, name);
      // A short path of its own for the unix socket (a path is limited to 107 bytes).
      socketDir = await mkdtemp(join(tmpdir(), 'lme-bridge-'));
      const bridge = await startBridge({
        name,
        python: bridgePaths(root, name).python,
        script: join(BRIDGE_SOURCE_DIR, BRIDGES[name].script),
        args: ['--work-dir', store, ...embeddingCacheArgs(dependencies), ...options.args(manifest)],
        socketDir,
        environment,
        ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      });
      if (closed) await bridge.stop();
      // The bridge speaks lme's provider protocol: the http provider's client, named as the bridge.
      const memory = createHttpMemory({
        url: bridge.url,
        kind: name,
        named: `the ${name} bridge at ${bridge.url}`,
        // A local process working through a haystack (minutes for MemPalace on a busy machine) is
        // not a slow server: it gets at least BRIDGE_CALL_TIMEOUT_MS, and no retry, which would send
        // the same ingest again while the first still runs.
        timeoutMs: Math.max(dependencies.timeoutMs, BRIDGE_CALL_TIMEOUT_MS),
        // ... but once it replies, `--provider-timeout` bounds each wait for its next bytes.
        idleTimeoutMs: dependencies.timeoutMs,
        maxRetries: 0,
      });
      current = memory;
      isolation = bridge.isolation;
      child = bridge;
      return { bridge, memory };
    })();
    return running;
  };

  return {
    // The bridge's own name and version once its health reply is in (after preflight).
    identity: () =>
      current === undefined
        ? { kind: name, url: `${name} bridge (not started)` }
        : { ...current.identity(), ...(isolation === undefined ? {} : { isolation }) },
    unavailable() {
      const reason = child?.exitReason();
      if (reason === undefined) return undefined;
      const log = child!.recentLog().slice(-5).join(' | ');
      return `the ${name} bridge exited mid-run (${reason}${log === '' ? '' : `; its last lines: ${log}`})`;
    },
    async process() {
      return (await start()).bridge;
    },
    async peakRssBytes() {
      if (!running) return undefined;
      return (await running.catch(() => undefined))?.bridge.peakRssBytes();
    },
    async preflight(callOptions) {
      await (await start()).memory.preflight(callOptions);
    },
    async reset(namespace, callOptions) {
      await (await start()).memory.reset(namespace, callOptions);
    },
    async ingest(namespace, sessions, callOptions) {
      return (await start()).memory.ingest(namespace, sessions, callOptions);
    },
    async search(request, callOptions) {
      return (await start()).memory.search(request, callOptions);
    },
    async close() {
      closed = true;
      if (!running) return;
      const started = await running.catch(() => undefined);
      await started?.bridge.stop();
      // The store is this bridge's alone: nothing of it is kept once the bridge has stopped.
      for (const folder of [store, socketDir])
        if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    },
  };
}

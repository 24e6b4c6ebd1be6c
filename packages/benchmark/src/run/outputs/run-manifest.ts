import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { READ_LIMITS, readGuardedJsonFile } from '../../config/read-guarded-file.js';
import { recordedConfig, recordedKeyDifferences, unrecordedDefaults } from '../../config/recorded-config.js';
import { fromLegacyRetrieverKeys } from '../../config/retriever-settle.js';
import type { RunConfig, RunConfigInput } from '../../config/run-config.js';
import {
  knownProviderCapabilities,
  measuringProviderOptions,
  providerCapabilities,
} from '../../providers/provider-registry.js';
import type { ProviderIdentity } from '../../results/provider-identity.js';
import type { Sample } from '../../results/sample.js';
import { datasetFileSha256 } from '../checks/dataset-checksum.js';
import { folderFileProblem } from '../files/folder-file-problem.js';
import { manifestSchema } from './manifest-schema.js';
import type { Provenance } from './provenance.js';
import { checkRankings } from './rankings-check.js';
import type { RunFingerprint } from './run-fingerprint.js';
import { currentSetup, type RunSetup, setupChanges } from './run-setup.js';
import { readSamplesFile } from './samples-file.js';

/**
 * The settings a run's results depend on, as the setup, the fingerprint and a resume's setup check
 * compare them: the options of the components it selected (recorded-config.ts), less the
 * `--provider-option`s that measure nothing. A provider this lme does not know (a plugin's, not
 * loaded now) leaves every component's options in.
 */
export function resultSettings(config: RunConfig): RunConfig {
  const provider = knownProviderCapabilities(config.provider);
  return measuringProviderOptions(provider ? recordedConfig(config, provider) : config);
}

/** The manifest written to config.json. */
export type RunManifest = {
  run_id: string;
  config: RunConfig;
  provenance: Provenance;
  /**
   * `sha256`: the dataset's (decompressed) text, known once the whole file was read;
   * `file_sha256`: the file's bytes, recorded when the run starts (what `--resume` checks).
   */
  dataset: { path: string; sha256: string | null; file_sha256?: string };
  /**
   * An external memory system (`--provider http`): the URL without secrets and the name and version
   * its health reply gave, as of the last start (`--resume` asks again).
   */
  provider?: ProviderIdentity;
  /** The provider's `--provider-option`s as its schema parsed them (never a secret: keys come from the environment). */
  provider_options?: Record<string, unknown>;
  resumed?: { argv: string[]; at: string }[];
  /** The provider's run-level figures (embedding and summary cost), written when the run ends. */
  provider_stats?: Record<string, unknown>;
  /**
   * Reader and judge answers this session of the run took from completion-cache entries another
   * endpoint made (the cache key leaves the endpoint out by design), per endpoint; absent when none.
   */
  cache?: { answers_from_other_endpoints: Record<string, number> };
  /** What the run's questions are made under (settings, code), written when it starts: what `--resume` compares. */
  setup?: RunSetup;
  /**
   * Set when `--resume-mixed` continued the run under another setup: each setup its questions were
   * made under, in order, with what changed from the one before. Its figures mix the setups.
   */
  mixed?: MixedSetup[];
  /** What shaped the rankings, hashed (code, models, data, settings) and the rankings' own hash; written when the run ends. */
  fingerprint?: RunFingerprint;
  /** When the run wrote its outputs after its last question; absent while it runs or if it stopped. */
  finished_at?: string;
  /** The errata the run applied (`--errata`), as checked against the dataset when it started. */
  errata?: {
    name: string;
    version: number;
    path: string;
    file_sha256: string;
    dataset_sha256: string;
    entries: number;
    /** The dataset's checksum was not the errata's (`--errata-any-checksum`). */
    checksum_override?: boolean;
  };
  /** The questions the run set out to answer (selection, --limit and shard applied), when known at its start. */
  questions_total?: number;
  /** Why and when the run stopped before its last question (it is partial; --resume continues it). */
  partial?: { reason: string; stopped_at: string };
};

/** One setup of a mixed run: from when, what changed from the setup before, and the setup. */
export type MixedSetup = { at: string; changes: string[]; setup: Partial<RunSetup> };

/**
 * Why a run is partial, or undefined when it finished: the reason it recorded when it stopped, or
 * no finish time at all (killed, or still running).
 */
export function partialReason(manifest: RunManifest): string | undefined {
  if (manifest.partial !== undefined) return manifest.partial.reason;
  if (manifest.finished_at === undefined)
    return 'the run did not finish (config.json records no finish time)';
  return undefined;
}

export function readManifest(dir: string): RunManifest {
  const path = join(dir, 'config.json');
  if (!existsSync(path)) throw new Error(`${path} not found: is ${dir} a run folder?`);
  let value = readGuardedJsonFile(path, { maxBytes: READ_LIMITS.config });
  if (isObject(value) && isObject(value.config)) {
    value = { ...value, config: currentRetrieverForm(value.config as RunConfig) };
  }
  // Every field checked (manifest-schema.ts): the folder may come from anyone.
  const checked = manifestSchema.safeParse(value);
  if (!checked.success) throw new Error(folderFileProblem(path, checked.error));
  // The config as stored (checked, not filled with today's defaults: resume compares it as written),
  // but for the components' options a run leaves out when it does not select them (recorded-config.ts).
  return {
    ...checked.data,
    config: unrecordedDefaults((value as { config: RunConfig }).config),
  } as RunManifest;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A config.json written before base retrievers were one key (`retriever: hybrid` with
 * `sessionAware: true`) read in today's form (`retriever: session-aware`, `routes: hybrid`), so
 * resume, compare and the report see one shape; a config no run could have written stays as it is.
 */
function currentRetrieverForm(config: RunConfig): RunConfig {
  try {
    return fromLegacyRetrieverKeys(config as RunConfigInput) as RunConfig;
  } catch {
    return config;
  }
}

/** A run folder read back for `--resume`: the samples kept and the ones to run again. */
export type ResumeState = {
  dir: string;
  manifest: RunManifest;
  /** Finished questions that are kept (errors are dropped with `retryErrors`). */
  previous: Sample[];
  retrying: number;
  droppedTornLine: boolean;
  /** `--resume-mixed` continues under a changed setup: what changed. */
  mixedChanges?: string[];
};

/**
 * Checks that `config` may continue the run in `dir` (the same result keys and the same dataset
 * file) and reads its finished questions. Refuses in one sentence otherwise.
 */
export async function prepareResume(options: {
  dir: string;
  config: RunConfig;
  datasetPath: string;
  retryErrors?: boolean;
  /** `--resume-mixed`: continue under a changed setup, recording both (`mixed`). */
  mixed?: boolean;
  argv: readonly string[];
}): Promise<ResumeState> {
  const dir = resolve(options.dir);
  const { config } = options;
  const stored = readManifest(dir);
  const provider = providerCapabilities(config.provider);
  const differences = recordedKeyDifferences(
    measuringProviderOptions(stored.config),
    measuringProviderOptions(config),
    provider,
  );
  if (differences.length > 0) {
    throw new Error(
      `Cannot resume ${dir}: the config differs in ${differences.map((key) => `${key} (stored ${JSON.stringify((stored.config as Record<string, unknown>)[key])}, now ${JSON.stringify((config as Record<string, unknown>)[key])})`).join(', ')}.`,
    );
  }
  const fileSha256 = await datasetFileSha256(options.datasetPath);
  if (stored.dataset.file_sha256 !== undefined && stored.dataset.file_sha256 !== fileSha256) {
    throw new Error(
      `Cannot resume ${dir}: the dataset ${options.datasetPath} is not the file the run started on (SHA-256 ${fileSha256.slice(0, 12)}…, stored ${stored.dataset.file_sha256.slice(0, 12)}…); check --dataset and --data-dir.`,
    );
  }
  const mixed = checkSetup(dir, stored, resultSettings(config), options.mixed === true);
  const { samples, tornLastLine } = readSamplesFile(join(dir, 'samples.jsonl'));
  checkRankings(dir, stored, samples);
  const retrying = options.retryErrors ? samples.filter((sample) => sample.error !== null) : [];
  const manifest: RunManifest = {
    ...stored,
    config: { ...recordedConfig(config, provider), runId: stored.run_id },
    dataset: { ...stored.dataset, file_sha256: fileSha256 },
    resumed: [...(stored.resumed ?? []), { argv: [...options.argv], at: new Date().toISOString() }],
    ...(mixed ? { setup: mixed.setup, mixed: mixed.mixed } : {}),
  };
  return {
    dir,
    manifest,
    previous: samples.filter((sample) => !retrying.includes(sample)),
    retrying: retrying.length,
    droppedTornLine: tornLastLine,
    ...(mixed?.changes ? { mixedChanges: mixed.changes } : {}),
  };
}

/**
 * Compares the setup the run's questions were made under (config.json `setup`, or the `fingerprint`
 * of a finished run) with the one this resume would run under. A change is refused in one sentence
 * naming it, unless `mixed`: then the run continues under the new setup and records both.
 */
function checkSetup(
  dir: string,
  stored: RunManifest,
  config: RunConfig,
  mixed: boolean,
): { setup: RunSetup; mixed: MixedSetup[]; changes?: string[] } | undefined {
  const before: Partial<RunSetup> | undefined =
    stored.setup ??
    (stored.fingerprint ? { config: stored.fingerprint.config, code: stored.fingerprint.code } : undefined);
  const current = currentSetup(config);
  if (before === undefined) return stored.mixed ? { setup: current, mixed: stored.mixed } : undefined;
  const changes = setupChanges(before, current);
  if (changes.length === 0) return undefined;
  if (!mixed) {
    throw new Error(
      `Cannot resume ${dir}: its questions were made under another setup (${changes.join('; ')}); resume under that setup, start a new run, or pass --resume-mixed to continue and record the run as mixed.`,
    );
  }
  const first: MixedSetup = {
    at: stored.provenance?.started_at ?? new Date(0).toISOString(),
    changes: [],
    setup: before,
  };
  return {
    setup: current,
    mixed: [...(stored.mixed ?? [first]), { at: new Date().toISOString(), changes, setup: current }],
    changes,
  };
}

import { differingKeys, NON_RESULT_KEYS } from '../../config/run-config.js';
import { collectProvenance, lmeGitState } from './provenance.js';
import { codeSha256, configSha256 } from './run-fingerprint.js';

/**
 * What a run's questions are made under, recorded in config.json (`setup`) when the run starts, so
 * `--resume` can tell whether it would continue under the same one: the result-shaping settings
 * (and their hash), lme's source and lockfile hash, package versions and git commit. The dataset
 * file is checked on its own (`dataset.file_sha256`).
 */
export type RunSetup = {
  /** SHA-256 of the result-shaping settings (run-fingerprint.ts `configSha256`). */
  config: string;
  /** The settings themselves (NON_RESULT_KEYS left out), so a change can be named key by key. */
  settings: Record<string, unknown>;
  /** SHA-256 over lme's source files and lockfile (`codeSha256`); null when the source is not beside the code. */
  code: string | null;
  versions: Record<string, string>;
  git_commit: string | null;
};

/** The setup `config` (flat, as config.json records it and `configSha256` hashes it) would run under with this checkout of lme. */
export function currentSetup(config: Parameters<typeof configSha256>[0]): RunSetup {
  const ignored = new Set<string>(NON_RESULT_KEYS);
  const settings = Object.fromEntries(
    Object.entries(config).filter(([key, value]) => !ignored.has(key) && value !== undefined),
  );
  return {
    config: configSha256(config),
    settings,
    code: codeSha256(),
    versions: collectProvenance([]).versions,
    git_commit: lmeGitState().commit,
  };
}

const shown = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));
const short = (hash: string | null | undefined) => (hash ? `${hash.slice(0, 12)}…` : '(unknown)');

/**
 * What differs between the setup a run's questions were made under and `current`, one entry per
 * kind: `settings bm25K1 1.5 -> 0.2`, `code (source abc… -> def…; git 1a2b… -> 3c4d…; @lme/benchmark
 * 0.1.0 -> 0.2.0)`. Parts the stored setup lacks (a run from before lme recorded them) are not compared.
 */
export function setupChanges(stored: Partial<RunSetup>, current: RunSetup): string[] {
  const changes: string[] = [];
  if (stored.settings !== undefined) {
    // The settings both record: an earlier release recorded every component's options, a newer run
    // only its selected components'; a resume whose selection changed is refused before this.
    const both = (settings: Readonly<Record<string, unknown>>, other: Readonly<Record<string, unknown>>) =>
      Object.fromEntries(Object.entries(settings).filter(([key]) => Object.hasOwn(other, key)));
    const keys = differingKeys(
      [both(stored.settings, current.settings), both(current.settings, stored.settings)],
      new Set(NON_RESULT_KEYS),
    ).sort();
    if (keys.length > 0)
      changes.push(
        `settings ${keys.map((key) => `${key} ${shown(stored.settings?.[key])} -> ${shown(current.settings[key])}`).join(', ')}`,
      );
  } else if (stored.config !== undefined && stored.config !== current.config) {
    changes.push(`settings (hash ${short(stored.config)} -> ${short(current.config)})`);
  }
  const code: string[] = [];
  if (stored.code && current.code && stored.code !== current.code)
    code.push(`source ${short(stored.code)} -> ${short(current.code)}`);
  if (stored.git_commit && current.git_commit && stored.git_commit !== current.git_commit)
    code.push(`git ${stored.git_commit.slice(0, 10)} -> ${current.git_commit.slice(0, 10)}`);
  for (const [name, version] of Object.entries(stored.versions ?? {})) {
    const now = current.versions[name];
    if (now !== undefined && now !== version) code.push(`${name} ${version} -> ${now}`);
  }
  if (code.length > 0) changes.push(`code (${code.join('; ')})`);
  return changes;
}

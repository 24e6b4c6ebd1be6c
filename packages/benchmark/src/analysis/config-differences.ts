import { differingKeys, NON_RESULT_KEYS } from '../config/run-config.js';
import type { RunManifest } from '../run/outputs/run-manifest.js';

/**
 * Config keys that choose which questions run, not how any question is answered: shard runs
 * differ in these, so merge ignores them (the per-question check still refuses conflicting
 * results).
 */
export const SELECTION_KEYS: readonly string[] = [
  'shard',
  'questionIds',
  'questionTypes',
  'limit',
  'seed',
  'split',
];

export type ConfigDifference = { key: string; values: unknown[] };

/** The dataset SHA-256 every manifest records, `null` when some does not (unfinished), or `differ`. */
export function sharedDatasetHash(manifests: readonly RunManifest[]): string | null {
  const hashes = manifests.map((manifest) => manifest.dataset?.sha256 ?? null);
  if (hashes.some((hash) => hash === null)) return null;
  return new Set(hashes).size === 1 ? hashes[0]! : 'differ';
}

/**
 * Config keys whose values differ between the manifests (compared as JSON), leaving out
 * NON_RESULT_KEYS (where a run writes, how fast, how much it stores: config/run-config.ts) and
 * `ignore`. `dataset` (a name or path) is judged by the datasets' SHA-256 when every run recorded
 * it; a hash mismatch is reported as the key `dataset.sha256` (or, when some run has no text hash
 * yet, `dataset.file_sha256` from the files' hashes recorded at the start).
 */
export function configDifferences(
  manifests: readonly RunManifest[],
  ignore: readonly string[] = [],
): ConfigDifference[] {
  const hash = sharedDatasetHash(manifests);
  const ignored = new Set<string>([...NON_RESULT_KEYS, ...ignore]);
  if (hash !== null && hash !== 'differ') ignored.add('dataset');
  const configs = manifests.map((manifest) => manifest.config as Record<string, unknown>);
  const differences: ConfigDifference[] = differingKeys(configs, ignored).map((key) => ({
    key,
    values: configs.map((config) => config[key]),
  }));
  if (hash === 'differ') {
    differences.push({
      key: 'dataset.sha256',
      values: manifests.map((manifest) => manifest.dataset?.sha256),
    });
  } else if (hash === null) {
    // An unfinished run knows only its file's SHA-256 (recorded at the start): compare those.
    const files = manifests.map((manifest) => manifest.dataset?.file_sha256);
    if (files.every((file) => typeof file === 'string') && new Set(files).size > 1) {
      differences.push({ key: 'dataset.file_sha256', values: files });
    }
  }
  return differences;
}

export function formatConfigValue(value: unknown): string {
  return value === undefined ? '(unset)' : typeof value === 'string' ? value : JSON.stringify(value);
}

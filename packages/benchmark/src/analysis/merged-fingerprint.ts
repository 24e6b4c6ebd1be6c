import { createHash } from 'node:crypto';
import type { Sample } from '../results/sample.js';
import { configSha256, type RunFingerprint, rankingsSha256 } from '../run/outputs/run-fingerprint.js';
import type { RunManifest } from '../run/outputs/run-manifest.js';

/**
 * The fingerprint of a merged run, as the runner would have written for one unsharded run of the
 * same questions: the code, model and dataset parts the shards share (checkSetups made sure they
 * do), the merged config's hash (without the shard) and the merged samples' rankings hash. Null when
 * no shard recorded a fingerprint.
 */
export function mergedFingerprint(options: {
  /** The merged config.json's `config` (flat, as users type it). */
  config: RunManifest['config'];
  shards: readonly (RunFingerprint | undefined)[];
  samples: readonly Pick<Sample, 'question_id' | 'hits'>[];
}): RunFingerprint | null {
  const shared = options.shards.find((fingerprint) => fingerprint !== undefined);
  if (shared === undefined) return null;
  // The same parts, in the same order, as runFingerprint hashes into `setup`.
  const parts = {
    config: configSha256(options.config),
    code: shared.code,
    models: shared.models,
    dataset: shared.dataset,
  };
  const setup = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  return { setup, ...parts, rankings: rankingsSha256(options.samples) };
}

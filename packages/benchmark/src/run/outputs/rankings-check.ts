import { join } from 'node:path';
import type { Sample } from '../../results/sample.js';
import { rankingsSha256 } from './run-fingerprint.js';

/**
 * Refuses a results folder whose config.json records rankings (`fingerprint.rankings`, written when
 * the run ended) that its samples.jsonl does not hold: a config.json copied from another run, or
 * samples edited since. Merge, compare, gate and resume trust the fingerprint, so they stop here,
 * in one sentence naming the folder. A run that did not finish records none and passes.
 */
export function checkRankings(
  dir: string,
  manifest: { fingerprint?: { rankings: string } },
  samples: readonly Sample[],
): void {
  const recorded = manifest.fingerprint?.rankings;
  if (recorded === undefined) return;
  const held = rankingsSha256(samples);
  if (held === recorded) return;
  throw new Error(
    `${join(dir, 'config.json')} records rankings ${recorded.slice(0, 12)}…, but samples.jsonl beside it holds rankings ${held.slice(0, 12)}…: the two files are not from one run (a config.json from another run, or samples edited), so lme will not use them.`,
  );
}

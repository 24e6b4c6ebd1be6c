import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from '../results/sample.js';
import { rankingsSha256 } from '../run/outputs/run-fingerprint.js';

/**
 * After a test edits a finished run's samples.jsonl: config.json's `fingerprint.rankings` made to
 * hold those samples' rankings, as a run that wrote them would record (readRun checks the two agree).
 */
export function recordRankings(dir: string): void {
  const samples = readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Sample);
  const byId = new Map(samples.map((sample) => [sample.question_id, sample]));
  const manifest = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  if (manifest.fingerprint === undefined) return;
  manifest.fingerprint.rankings = rankingsSha256([...byId.values()]);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest, null, 2));
}

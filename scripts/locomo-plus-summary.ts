/**
 * The official LoCoMo-Plus score summary (judge_summary.json, as llm_as_judge.py `_compute_summary`
 * writes it) of judged files from the official pipeline (`judged*.json`: records with `category`
 * and `judge_score`), one per file, printed as the official script writes it.
 *
 *   pnpm tsx --conditions=source scripts/locomo-plus-summary.ts <judged.json>...
 */
import { readFileSync } from 'node:fs';
import {
  computeLocomoPlusSummary,
  type LocomoPlusJudgedRecord,
  renderLocomoPlusSummary,
} from '../packages/benchmark/src/benchmarks/locomo/plus/locomo-plus-summary.js';

const files = process.argv.slice(2);
if (files.length === 0)
  throw new Error('Give one or more judged*.json files of the official LoCoMo-Plus pipeline.');
for (const file of files) {
  const records = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(records)) throw new Error(`${file}: not a JSON array of judged records.`);
  process.stdout.write(
    `${file}\n${renderLocomoPlusSummary(computeLocomoPlusSummary(records as LocomoPlusJudgedRecord[]))}\n`,
  );
}

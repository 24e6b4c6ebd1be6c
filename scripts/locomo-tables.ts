/**
 * Prints the LoCoMo tables of a run folder: official recall_acc per category (dialog and session
 * level, as printed by the official scripts and as per-question means) and, when the run answered
 * questions, the official F1 table and the LLM judge table.
 *
 *   pnpm tsx --conditions=source scripts/locomo-tables.ts <run-dir> [--columns recall_acc@5,...]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  renderLocomoQaTables,
  renderLocomoRetrievalTable,
} from '../packages/benchmark/src/benchmarks/locomo/locomo-report.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { columns: { type: 'string' } },
});
const runDir = positionals[0];
if (!runDir) {
  console.error('usage: scripts/locomo-tables.ts <run-dir> [--columns recall_acc@5,session_recall_acc@10]');
  process.exit(2);
}
const samples = readFileSync(join(runDir, 'samples.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config as Record<
  string,
  unknown
>;
console.log(renderLocomoRetrievalTable(samples, values.columns ? values.columns.split(',') : undefined));
if (samples.some((sample) => 'qa.locomo_f1' in sample.metrics)) {
  const rubric = typeof config.judge === 'string' ? config.judge : 'longmemeval';
  console.log(`\n${renderLocomoQaTables(samples, { judge: `${rubric} (${String(config.judgeModel)})` })}`);
}

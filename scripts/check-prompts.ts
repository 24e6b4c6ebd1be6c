/**
 * Compares every prompt and request parameter lme's reader and judge send with what the unchanged
 * official LongMemEval scripts sent: every file of ../shared/reference/official-prompts (oracle in
 * four modes, full history on oracle and on all of S, the 38 S questions in four modes, the judge on
 * judge-oracle.hypotheses.jsonl.gz), and the modes that reference does not hold
 * (packages/benchmark/src/qa/fixtures/official-modes.jsonl.gz: useronly, Chain-of-Note, flat-turn,
 * flat-session on S haystacks holding a session id twice).
 *
 *   pnpm tsx --conditions=source scripts/check-prompts.ts [--reference DIR] [--data-dir DIR] [--only SUBSTRING]
 *
 * Prints, per file, prompts compared / identical and parameters identical; exits 1 naming the
 * first differing question of any file that differs.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadLongMemEval } from '../packages/benchmark/src/benchmarks/longmemeval/load-longmemeval.js';
import type { LongMemEvalRecord } from '../packages/benchmark/src/benchmarks/longmemeval-record.js';
import {
  type ComparisonResult,
  compareJudgePrompts,
  compareReaderPrompts,
  readerModeOf,
  readReferenceLines,
} from '../packages/benchmark/src/qa/official-fidelity.js';

const { values } = parseArgs({
  options: {
    reference: { type: 'string', default: '../shared/reference/official-prompts' },
    'data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? '../shared/datasets/longmemeval' },
    only: { type: 'string' },
  },
});
const referenceDir = values.reference;
const fixture = 'packages/benchmark/src/qa/fixtures/official-modes.jsonl.gz';

const datasets = new Map<string, Map<string, LongMemEvalRecord>>();
async function records(name: 'oracle' | 's'): Promise<Map<string, LongMemEvalRecord>> {
  const file = name === 'oracle' ? 'longmemeval_oracle.json.gz' : 'longmemeval_s_cleaned.json.gz';
  let loaded = datasets.get(name);
  if (!loaded) {
    const dataset = await loadLongMemEval(join(values['data-dir'], file));
    loaded = new Map(dataset.records.map((record) => [record.question_id, record]));
    datasets.set(name, loaded);
  }
  return loaded;
}
const datasetOf = (name: string) =>
  name.includes('-s-') || name.includes('-s38-') || name.startsWith('s-') ? 's' : 'oracle';

const results: ComparisonResult[] = [];
const report = (result: ComparisonResult, seconds: number) => {
  results.push(result);
  console.log(
    `${result.name}: ${result.compared} compared, ${result.identicalPrompts} prompts identical, ${result.identicalParameters} parameters identical (${seconds.toFixed(1)} s)`,
  );
};
const wanted = (name: string) => values.only === undefined || name.includes(values.only);

for (const file of readdirSync(referenceDir)
  .filter((name) => name.endsWith('.jsonl.gz'))
  .sort()) {
  const name = file.replace(/\.jsonl\.gz$/, '');
  if (name.endsWith('.hypotheses') || !wanted(name)) continue;
  const started = performance.now();
  const lines = readReferenceLines(join(referenceDir, file));
  if (name === 'judge-oracle') {
    const hypotheses = new Map(
      readReferenceLines(join(referenceDir, 'judge-oracle.hypotheses.jsonl.gz')).map((line) => [
        line.question_id,
        (line as unknown as { hypothesis: string }).hypothesis,
      ]),
    );
    report(
      await compareJudgePrompts(name, lines, await records('oracle'), hypotheses),
      (performance.now() - started) / 1000,
    );
    continue;
  }
  const mode = readerModeOf(name);
  if (!mode) throw new Error(`${file}: no lme reader mode matches this reference file.`);
  report(
    await compareReaderPrompts(name, lines, await records(datasetOf(name)), mode),
    (performance.now() - started) / 1000,
  );
}

const byMode = new Map<string, ReturnType<typeof readReferenceLines>>();
for (const line of readReferenceLines(fixture)) {
  const lines = byMode.get(line.mode!) ?? [];
  lines.push(line);
  byMode.set(line.mode!, lines);
}
for (const [name, lines] of byMode) {
  if (!wanted(name)) continue;
  const started = performance.now();
  const mode = readerModeOf(name);
  if (!mode) throw new Error(`${fixture}: no lme reader mode matches mode "${name}".`);
  report(
    await compareReaderPrompts(`official-modes ${name}`, lines, await records(datasetOf(name)), mode),
    (performance.now() - started) / 1000,
  );
}

const failed = results.filter((result) => result.firstDifference);
for (const result of failed) console.error(`DIFFERS ${result.firstDifference}`);
console.log(
  failed.length === 0
    ? `All ${results.length} files identical.`
    : `${failed.length} of ${results.length} files differ.`,
);
process.exitCode = failed.length === 0 ? 0 : 1;

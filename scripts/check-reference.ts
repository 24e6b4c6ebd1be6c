/**
 * Reproduces the official LongMemEval BM25 retrieval figures: runs lme on oracle and S at
 * session and turn granularity with the official tokenizer and compares every mean, every
 * per-question metric and every top-50 ranking with ../shared/reference/official-bm25.
 *
 *   pnpm tsx --conditions=source scripts/check-reference.ts [--reference DIR] [--data-dir DIR]
 *
 * Exits 1 when anything differs beyond the tolerances printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkReferenceRun,
  REFERENCE_QUESTION_TOLERANCE,
} from '../packages/benchmark/src/reference/check-reference-run.js';

const { values } = parseArgs({
  options: {
    reference: { type: 'string', default: '../shared/reference/official-bm25' },
    'data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? '../shared/datasets/longmemeval' },
  },
});

const out = mkdtempSync(join(tmpdir(), 'lme-reference-'));
let failed = false;
try {
  for (const dataset of ['oracle', 's'] as const) {
    for (const granularity of ['session', 'turn'] as const) {
      const comparison = await checkReferenceRun({
        dataset,
        granularity,
        dataDir: values['data-dir'],
        referenceDir: values.reference,
        out,
      });
      const { name } = comparison;
      const questionsOff = new Set(
        comparison.findings.filter((f) => f.what.startsWith('question ')).map((f) => f.what.split(' ')[1]),
      ).size;
      const ok = comparison.findings.length === 0;
      failed ||= !ok;
      console.log(
        `${name.padEnd(15)} ${ok ? 'OK  ' : 'FAIL'} questions ${comparison.questionsCompared}` +
          ` · max |mean diff| ${comparison.maxMeanDiff.toExponential(2)}` +
          ` · max |per-question diff| ${comparison.maxQuestionDiff.toExponential(2)} ${granularity === 'turn' ? ' on the official ranking' : ''} (${questionsOff} questions beyond ${REFERENCE_QUESTION_TOLERANCE})` +
          ` · top-50 rankings differing beyond ties: ${comparison.rankingMismatches}`,
      );
      for (const finding of comparison.findings.slice(0, 10))
        console.log(`    ${finding.what}: ${finding.detail}`);
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

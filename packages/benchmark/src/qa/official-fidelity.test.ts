import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLongMemEval } from '../benchmarks/longmemeval/load-longmemeval.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import {
  compareJudgePrompts,
  compareReaderPrompts,
  type ReferenceLine,
  readerModeOf,
  readReferenceLines,
} from './official-fidelity.js';

// What the unchanged official scripts sent (../shared/reference/official-prompts, see its README)
// and, for the modes it does not hold, fixtures/official-modes.jsonl.gz (scripts/record-official-modes.py).
// The oracle prompts take about 25 s per 500 on these machines (o200k_base tokenizing), so this test
// checks a stratified subset of every oracle file (the first QUESTIONS_PER_TYPE questions of each type)
// and the whole judge file; `pnpm tsx --conditions=source scripts/check-prompts.ts` checks everything,
// S included.
const REFERENCE = join(REPO_ROOT, '..', 'shared', 'reference', 'official-prompts');
const ORACLE = join(REPO_ROOT, '..', 'shared', 'datasets', 'longmemeval', 'longmemeval_oracle.json.gz');
const FIXTURE = join(REPO_ROOT, 'packages', 'benchmark', 'src', 'qa', 'fixtures', 'official-modes.jsonl.gz');
const QUESTIONS_PER_TYPE = 2;
const missing = [REFERENCE, ORACLE].find((path) => !existsSync(path));

const ORACLE_READER_FILES = [
  'reader-oracle-session-json_cot',
  'reader-oracle-session-json_direct',
  'reader-oracle-session-nl_cot',
  'reader-oracle-session-nl_direct',
  'reader-oracle-file-orig-session-json_cot',
];
const ORACLE_MODES = [
  'oracle-session-useronly-json_cot',
  'oracle-session-useronly-nl_direct',
  'oracle-session-con-json_cot',
  'oracle-session-con-json_direct',
  'oracle-session-con-useronly-json_cot',
  'flat-turn-top10-json_cot',
  'flat-turn-top10-nl_direct',
  'flat-turn-top10-con-json_cot',
];

describe.skipIf(missing !== undefined)(
  `lme's requests equal the official scripts'${missing ? ` (skipped: ${missing} is absent; it comes with ../shared)` : ''}`,
  () => {
    let records: Map<string, LongMemEvalRecord>;
    let subset: (lines: readonly ReferenceLine[]) => ReferenceLine[];

    beforeAll(async () => {
      const dataset = await loadLongMemEval(ORACLE);
      records = new Map(dataset.records.map((record) => [record.question_id, record]));
      // Stratified: per question type (abstention questions as their own stratum), the first ids.
      const stratum = (id: string) => `${records.get(id)?.question_type}${id.endsWith('_abs') ? ':abs' : ''}`;
      subset = (lines) => {
        const taken = new Map<string, number>();
        return lines.filter((line) => {
          const key = stratum(line.question_id);
          const count = taken.get(key) ?? 0;
          taken.set(key, count + 1);
          return count < QUESTIONS_PER_TYPE;
        });
      };
    }, 60_000);

    /** Every line's prompt and parameters equal lme's for the mode `name` names. */
    async function expectOfficialReaderPrompts(name: string, lines: readonly ReferenceLine[]) {
      const result = await compareReaderPrompts(name, lines, records, readerModeOf(name)!);
      expect(result.firstDifference).toBeUndefined();
      expect(lines.length).toBeGreaterThanOrEqual(7 * QUESTIONS_PER_TYPE);
      expect(result).toMatchObject({
        compared: lines.length,
        identicalPrompts: lines.length,
        identicalParameters: lines.length,
      });
    }

    it.each(ORACLE_READER_FILES)(
      'sends the official reader prompt and parameters: %s',
      async (name) => {
        await expectOfficialReaderPrompts(
          name,
          subset(readReferenceLines(join(REFERENCE, `${name}.jsonl.gz`))),
        );
      },
      60_000,
    );

    it.each(ORACLE_MODES)(
      'sends the official reader prompts in the mode the reference lacks: %s',
      async (name) => {
        await expectOfficialReaderPrompts(
          name,
          subset(readReferenceLines(FIXTURE).filter((line) => line.mode === name)),
        );
      },
      60_000,
    );

    it('sends the official judge prompt and parameters for all 500 oracle questions', async () => {
      const hypotheses = new Map(
        readReferenceLines(join(REFERENCE, 'judge-oracle.hypotheses.jsonl.gz')).map((line) => [
          line.question_id,
          (line as unknown as { hypothesis: string }).hypothesis,
        ]),
      );
      const lines = readReferenceLines(join(REFERENCE, 'judge-oracle.jsonl.gz'));
      const result = await compareJudgePrompts('judge-oracle', lines, records, hypotheses);
      expect(result.firstDifference).toBeUndefined();
      expect(result).toMatchObject({ compared: 500, identicalPrompts: 500, identicalParameters: 500 });
    }, 60_000);

    it('names the first question that differs', async () => {
      const name = 'reader-oracle-session-json_direct';
      const lines = subset(readReferenceLines(join(REFERENCE, `${name}.jsonl.gz`))).slice(0, 3);
      const tampered = lines.map((line, index) =>
        index === 1 ? { ...line, prompt_sha256: '0'.repeat(64) } : line,
      );
      const result = await compareReaderPrompts(name, tampered, records, readerModeOf(name)!);
      expect(result.identicalPrompts).toBe(2);
      expect(result.firstDifference).toMatch(
        new RegExp(`^${name}: question ${lines[1]!.question_id}: prompt differs`),
      );
    }, 60_000);
  },
);

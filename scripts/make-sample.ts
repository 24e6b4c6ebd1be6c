/**
 * Cuts the committed sample from the real S file: the first 3 non-abstention questions of every
 * question type and the first abstention question of 4 types, in file order, written as compact
 * gzip JSON to datasets/sample/longmemeval_s_sample.json.gz.
 *
 *   pnpm tsx --conditions=source scripts/make-sample.ts [path to longmemeval_s_cleaned.json.gz]
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadLongMemEval } from '../packages/benchmark/src/benchmarks/longmemeval/load-longmemeval.js';
import {
  isAbstention,
  type LongMemEvalRecord,
} from '../packages/benchmark/src/benchmarks/longmemeval-record.js';

const source = process.argv[2] ?? '../shared/datasets/longmemeval/longmemeval_s_cleaned.json.gz';
const { records, sha256 } = await loadLongMemEval(source);
const perType = new Map<string, number>();
const abstentionTypes = new Set<string>();
const picked: LongMemEvalRecord[] = records.filter((record) => {
  if (isAbstention(record.question_id)) {
    if (abstentionTypes.size >= 4 || abstentionTypes.has(record.question_type)) return false;
    abstentionTypes.add(record.question_type);
    return true;
  }
  const count = perType.get(record.question_type) ?? 0;
  perType.set(record.question_type, count + 1);
  return count < 3;
});
const target = 'datasets/sample/longmemeval_s_sample.json.gz';
const json = Buffer.from(JSON.stringify(picked));
writeFileSync(target, gzipSync(json, { level: 9 }));
console.log(
  `${target}: ${picked.length} questions from ${source} (sha256 ${sha256}); ${json.length} bytes of JSON`,
);

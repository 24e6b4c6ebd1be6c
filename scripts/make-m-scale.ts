/**
 * Writes an M-scale LongMemEval file from S: every question keeps its own haystack and gets
 * distractor sessions drawn with a fixed seed from the other questions' haystacks until it has
 * 500 sessions (see packages/benchmark/src/benchmarks/longmemeval/make-m-scale.ts). Streams the output through
 * gzip record by record; prints the file's SHA-256, size, generation time and peak RSS. With
 * `--split dev` (or `test`) only that part of lme's dev/test split is written, its distractors
 * drawn from that part's haystacks alone: the dev suite's S dev set at M scale (docs/defaults.md).
 *
 *   pnpm tsx --conditions=source scripts/make-m-scale.ts \
 *     [--source ../shared/datasets/longmemeval/longmemeval_s_cleaned.json.gz] \
 *     [--out datasets/longmemeval_m_scale.json.gz] [--seed 0] [--sessions 500] [--level 6] [--split all|dev|test]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { streamLongMemEval } from '../packages/benchmark/src/benchmarks/longmemeval/load-longmemeval.js';
import { writeMScaleDataset } from '../packages/benchmark/src/benchmarks/longmemeval/make-m-scale.js';
import {
  devQuestionIds,
  inSplit,
  SPLITS,
  type SplitName,
} from '../packages/benchmark/src/run/selection/dev-test-split.js';

const { values } = parseArgs({
  options: {
    source: { type: 'string', default: '../shared/datasets/longmemeval/longmemeval_s_cleaned.json.gz' },
    out: { type: 'string', default: 'datasets/longmemeval_m_scale.json.gz' },
    seed: { type: 'string', default: '0' },
    sessions: { type: 'string', default: '500' },
    level: { type: 'string', default: '6' },
    split: { type: 'string', default: 'all' },
  },
});
if (!(SPLITS as readonly string[]).includes(values.split)) {
  console.error(`make-m-scale: --split must be one of ${SPLITS.join(', ')}, not "${values.split}".`);
  process.exit(1);
}
const split = values.split as SplitName;
let include: ((questionId: string) => boolean) | undefined;
if (split !== 'all') {
  const questions = [];
  for await (const { question_id, question_type } of streamLongMemEval(values.source).records) {
    questions.push({ question_id, question_type });
  }
  const devIds = devQuestionIds(questions);
  include = (questionId) => inSplit(split, questionId, devIds);
}

const started = performance.now();
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 50);
const result = await writeMScaleDataset({
  source: values.source,
  target: values.out,
  seed: Number(values.seed),
  sessionsPerQuestion: Number(values.sessions),
  gzipLevel: Number(values.level),
  ...(include ? { include } : {}),
  onQuestion: (position) => {
    if ((position + 1) % 50 === 0) process.stderr.write(`${position + 1} questions written\n`);
  },
}).catch((error: Error) => {
  console.error(`make-m-scale: ${error.message}`);
  process.exit(1);
});
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());
const seconds = (performance.now() - started) / 1000;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
console.log(
  `${values.out}: ${result.questions} questions (split ${split}), ${result.sessions} sessions (seed ${values.seed})`,
);
console.log(`distractor pool: ${result.poolSize} distinct non-evidence sessions from ${values.source}`);
console.log(`file   ${result.fileBytes} bytes (${mib(result.fileBytes)}) sha256 ${result.fileSha256}`);
console.log(`json   ${result.jsonBytes} bytes (${mib(result.jsonBytes)}) sha256 ${result.jsonSha256}`);
console.log(
  `generated in ${seconds.toFixed(1)} s, peak RSS ${mib(peakRss)}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);

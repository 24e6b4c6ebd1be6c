/**
 * Runs the unchanged official REALTALK scoring (scripts/realtalk-official.py around
 * `eval_memory/qa_tool.py` of a REALTALK checkout) beside lme's on every question of the chats,
 * for a fixed set of predictions per question made from the data (the gold, variants of it, an
 * evidence turn, another question's gold, an empty reply), and compares question by question: the
 * lexical score (exactly equal), the reader prompt and the GPT-score judge prompt (SHA-256 equal),
 * and the whole reader prompt of the first question of the first `--full` chats (byte for byte).
 *
 *   pnpm tsx --conditions=source scripts/realtalk-official-check.ts --official <REALTALK checkout> \
 *     [--data <folder of Chat_*.json>] [--python <python with nltk, numpy, regex>] [--full 3]
 *
 * The official code names the two speakers in `list(set(...))` order, which follows Python's string
 * hashing; each chat is run under PYTHONHASHSEED 0, 1, ... until that order is lme's (session 1's
 * order of first appearance), and the seed is printed. Exits 1 naming the first difference.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadRealtalk } from '../packages/benchmark/src/benchmarks/realtalk/load-realtalk.js';
import type { RealtalkRecord } from '../packages/benchmark/src/benchmarks/realtalk/realtalk-chat.js';
import { realtalkJudgeRubric } from '../packages/benchmark/src/benchmarks/realtalk/realtalk-judge.js';
import { realtalkReaderPromptDefinition } from '../packages/benchmark/src/benchmarks/realtalk/realtalk-prompts.js';
import {
  REALTALK_LEXICAL,
  realtalkAnswerMetrics,
} from '../packages/benchmark/src/benchmarks/realtalk/realtalk-scores.js';

const { values } = parseArgs({
  options: {
    official: { type: 'string' },
    data: { type: 'string', default: join(process.env.LME_DATA_DIR ?? 'datasets', 'realtalk') },
    python: { type: 'string', default: 'python3' },
    full: { type: 'string', default: '3' },
  },
});
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
if (!values.official)
  throw new Error('--official <REALTALK checkout> is required (the folder holding eval_memory/qa_tool.py).');

/** The replies scored for a question: made from the chat's own data, no model involved. */
function predictions(record: RealtalkRecord, next: RealtalkRecord | undefined): string[] {
  const gold = String(record.answer);
  const evidence = record.haystack_sessions.flat().find((turn) => turn.has_answer)?.content ?? '';
  return [
    gold,
    `The ${gold.toLowerCase()}, and more!`,
    gold.split(',')[0]!,
    gold.split(';').at(-1)!.trim(),
    evidence.slice(evidence.indexOf(': ') + 2),
    String(next?.answer ?? 'I do not know'),
    `Answer: ${gold}.\n`,
    '',
  ];
}

type OfficialLine = {
  qa_index: number;
  speakers: string[];
  reader_sha256: string;
  reader_prompt?: string;
  results: { lexical_score: number; judge_sha256: string }[];
};

const loaded = await loadRealtalk(values.data);
const chats = new Map<string, RealtalkRecord[]>();
for (const record of loaded.records) {
  const chat = record.question_id.replace(/_q\d+$/, '');
  chats.set(chat, [...(chats.get(chat) ?? []), record]);
}
const work = mkdtempSync(join(tmpdir(), 'lme-realtalk-official-'));
const counts = { questions: 0, predictions: 0, lexical: 0, reader: 0, judge: 0, full: 0, fullCompared: 0 };
const problems: string[] = [];
let maxDifference = 0;
for (const [position, [chat, records]] of [...chats].entries()) {
  const byIndex = new Map(
    records.map((record) => [Number(/_q(\d+)$/.exec(record.question_id)![1]) - 1, record]),
  );
  const replies = new Map(records.map((record, at) => [record, predictions(record, records[at + 1])]));
  const input = join(work, `${chat}.json`);
  const full = position < Number(values.full) ? [[...byIndex.keys()][0]!] : [];
  writeFileSync(
    input,
    JSON.stringify({
      file: join(values.data, `${chat}.json`),
      predictions: Object.fromEntries([...byIndex].map(([index, record]) => [index, replies.get(record)])),
      full,
    }),
  );
  const speakers = records[0]!.realtalk_chat.speakers;
  let lines: OfficialLine[] = [];
  let seed = 0;
  for (; seed < 64; seed++) {
    const output = join(work, `${chat}.jsonl`);
    const run = spawnSync(
      values.python,
      [join(import.meta.dirname, 'realtalk-official.py'), values.official, input, output],
      {
        env: { ...process.env, PYTHONHASHSEED: String(seed) },
        encoding: 'utf8',
      },
    );
    if (run.status !== 0)
      throw new Error(`${values.python} scripts/realtalk-official.py failed on ${chat}: ${run.stderr}`);
    lines = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as OfficialLine);
    if (lines[0]?.speakers.join('\n') === speakers.join('\n')) break;
  }
  if (seed === 64)
    throw new Error(`${chat}: no PYTHONHASHSEED below 64 gives the speaker order ${speakers.join(', ')}.`);
  for (const line of lines) {
    const record = byIndex.get(line.qa_index);
    if (!record) {
      problems.push(`${chat} qa[${line.qa_index}]: the official loop scores it, lme has no such question`);
      continue;
    }
    counts.questions++;
    const chunks = record.haystack_sessions.map((turns, index) => ({
      sessionId: record.haystack_session_ids[index]!,
      date: record.haystack_dates[index]!,
      turns,
    }));
    const prompt = realtalkReaderPromptDefinition.build!({ record, chunks }).text;
    if (sha256Hex(prompt) === line.reader_sha256) counts.reader++;
    else problems.push(`${record.question_id}: the reader prompt differs`);
    if (line.reader_prompt !== undefined) {
      counts.fullCompared++;
      if (line.reader_prompt === prompt) counts.full++;
      else problems.push(`${record.question_id}: the whole reader prompt differs`);
    }
    replies.get(record)!.forEach((reply, at) => {
      const official = line.results[at]!;
      counts.predictions++;
      const lme = realtalkAnswerMetrics(record, reply)[REALTALK_LEXICAL]!;
      maxDifference = Math.max(maxDifference, Math.abs(lme - official.lexical_score));
      if (lme === official.lexical_score) counts.lexical++;
      else
        problems.push(
          `${record.question_id} reply ${JSON.stringify(reply)}: lexical ${lme} (lme) vs ${official.lexical_score} (official)`,
        );
      const judge = realtalkJudgeRubric.items(record, reply)[0]!.prompt;
      if (sha256Hex(judge) === official.judge_sha256) counts.judge++;
      else problems.push(`${record.question_id} reply ${JSON.stringify(reply)}: the judge prompt differs`);
    });
  }
  process.stdout.write(
    `${chat}: ${lines.length} questions, PYTHONHASHSEED=${seed} gives speakers ${speakers.join(', ')}\n`,
  );
}
process.stdout.write(
  `questions ${counts.questions} of ${loaded.records.length}; predictions ${counts.predictions}: lexical equal ${counts.lexical} (max |difference| ${maxDifference}); judge prompts identical ${counts.judge}; reader prompts identical ${counts.reader}; whole reader prompts byte-identical ${counts.full} of ${counts.fullCompared}\n`,
);
if (problems.length > 0 || counts.questions !== loaded.records.length) {
  process.stderr.write(`${problems.length} differences; first: ${problems[0] ?? 'question count'}\n`);
  process.exit(1);
}

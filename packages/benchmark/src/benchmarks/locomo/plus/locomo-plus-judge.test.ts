import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildLocomoPlusJudgePrompt,
  LOCOMO_PLUS_JUDGE_TEMPLATES,
  locomoPlusLabelScore,
  parseLocomoPlusJudgeReply,
} from './locomo-plus-judge.js';
import { officialLocomoPlus, runOfficialPython } from './locomo-plus-official-reference.js';
import {
  computeLocomoPlusSummary,
  type LocomoPlusJudgedRecord,
  pythonRound,
  renderLocomoPlusSummary,
} from './locomo-plus-summary.js';

/** Replies a judge may give, and what the official reading makes of them. */
const REPLIES: Array<[string, { label: string; reason: string }]> = [
  ['{"label": "correct", "reason": "Same date."}', { label: 'correct', reason: 'Same date.' }],
  // Single-quoted keys: neither the pattern nor json.loads reads them; the word search does.
  [
    "```json\n{'label': 'partial', 'reason': 'misses the city'}\n```",
    { label: 'partial', reason: "```json\n{'label': 'partial', 'reason': 'misses the city'}\n```" },
  ],
  [
    '```json\n{"label": "partial", "reason": "misses the city"}\n```',
    { label: 'partial', reason: 'misses the city' },
  ],
  ['{"reason": "no link", "label": "wrong"}', { label: 'wrong', reason: 'no link' }],
  ['{"label": null}', { label: '', reason: '' }],
  ['{"label": 1, "reason": "x"}', { label: '', reason: '{"label": 1, "reason": "x"}' }],
  ['The answer is incorrect.', { label: 'correct', reason: 'The answer is incorrect.' }],
  ['WRONG', { label: 'wrong', reason: 'WRONG' }],
  ['Partially right', { label: 'partial', reason: 'Partially right' }],
  ['', { label: '', reason: '' }],
];

describe('the LoCoMo-Plus judge (llm_as_judge.py)', () => {
  it('fills the category template: gold, prediction and evidence, literal braces kept', () => {
    const prompt = buildLocomoPlusJudgePrompt({
      category: 'temporal',
      gold: '7 May 2023',
      prediction: 'May 7 {x}',
      evidence: 'Caroline：I went yesterday.',
    });
    expect(prompt).toContain('You are a Temporal Logic Judge.');
    expect(prompt).toContain(
      'Reference Answer:\n7 May 2023\n\nModel Prediction:\nMay 7 {x}\n\nRelevant Evidence:\nCaroline：I went yesterday.\n',
    );
    expect(prompt.endsWith('{"label": "correct"|"wrong", "reason": "<short explanation>"}\n')).toBe(true);
    expect(buildLocomoPlusJudgePrompt({ category: 'other', gold: 'g', prediction: 'p', evidence: 'e' })).toBe(
      LOCOMO_PLUS_JUDGE_TEMPLATES.default
        .replace('{gold}', 'g')
        .replace('{pred}', 'p')
        .replace('{evidence}', 'e')
        .replaceAll('{{', '{')
        .replaceAll('}}', '}'),
    );
  });

  it('reads a reply as the official parser does, "incorrect" included', () => {
    for (const [reply, expected] of REPLIES)
      expect(parseLocomoPlusJudgeReply(reply), reply).toEqual(expected);
  });

  it('scores correct 1, partial 0.5, wrong and anything else 0', () => {
    expect(['correct', ' Partial ', 'wrong', '', 'yes'].map(locomoPlusLabelScore)).toEqual([1, 0.5, 0, 0, 0]);
  });
});

describe('the score summary (_compute_summary)', () => {
  it('sums and averages per category, sorted as Python sorts, rounded half to even', () => {
    const records: LocomoPlusJudgedRecord[] = [
      ...Array(31).fill({ category: 'temporal', judge_score: 0 }),
      { category: 'temporal', judge_score: 1 },
      { category: 'Cognitive', judge_score: 0.5 },
      { category: 'Cognitive', judge_score: 1 },
      { category: null, judge_score: 0.5 },
    ];
    const summary = computeLocomoPlusSummary(records);
    expect(Object.keys(summary.by_category)).toEqual(['Cognitive', 'default', 'temporal']);
    // 1/32 = 0.03125 exactly: Python's round gives 0.0312 (toFixed would give 0.0313).
    expect(summary.by_category.temporal).toEqual({ score: 1, count: 32, avg: 0.0312 });
    expect(summary.by_category.Cognitive).toEqual({ score: 1.5, count: 2, avg: 0.75 });
    expect(summary).toMatchObject({
      total_score: 3,
      total_samples: 35,
      max_possible: 35,
      overall_avg: 0.0857,
    });
    expect(renderLocomoPlusSummary(summary)).toContain('"total_score": 3.0,\n  "total_samples": 35,');
    expect([pythonRound(0.125, 2), pythonRound(0.375, 2), pythonRound(2.675, 2)]).toEqual([0.12, 0.38, 2.67]);
  });
});

const official = officialLocomoPlus();
const JUDGED = ['judged.json', 'judged_v2.json', 'judged_v3.json'];

describe.skipIf('skip' in official)(
  `the published judge files ${'skip' in official ? `(skipped: ${official.skip})` : ''}`,
  () => {
    const dir = 'dir' in official ? official.dir : '';
    const output = (name: string) => join(dir, 'evaluation_framework/output', name);
    type Judged = LocomoPlusJudgedRecord & {
      category: string;
      evidence: string;
      prediction: string;
      ground_truth: string;
      judge_label: string;
      judge_reason: string;
      judge_score: number;
    };
    const read = (name: string) => JSON.parse(readFileSync(output(name), 'utf8')) as Judged[];

    it('reproduces judge_summary.json byte for byte from judged.json', () => {
      expect(`${renderLocomoPlusSummary(computeLocomoPlusSummary(read('judged.json')))}`).toBe(
        readFileSync(output('judge_summary.json'), 'utf8'),
      );
    });

    it('gives the summary _compute_summary gives for each judged file, and every judge_score from its label', () => {
      const reference = runOfficialPython(
        dir,
        [
          'from task_eval.llm_as_judge import _compute_summary',
          `print(json.dumps({n: _compute_summary(json.load(open(ROOT + "/evaluation_framework/output/" + n))) for n in ${JSON.stringify(JUDGED)}}))`,
        ].join('\n'),
      ) as Record<string, unknown>;
      for (const name of JUDGED) {
        const records = read(name);
        expect(computeLocomoPlusSummary(records), name).toEqual(reference[name]);
        for (const record of records)
          expect(locomoPlusLabelScore(record.judge_label)).toBe(record.judge_score);
      }
    });

    it('reads a failed call written as the reply the way the official parser did ("Incorrect API key" is correct)', () => {
      for (const name of JUDGED) {
        for (const record of read(name).filter((judged) => judged.judge_reason.startsWith('[API Error'))) {
          expect(parseLocomoPlusJudgeReply(record.judge_reason).label).toBe(record.judge_label);
        }
      }
    });

    it('sends the prompt get_judge_prompt builds for every judged record, and reads replies as _parse_judge_response', () => {
      const records = read('judged_v3.json');
      const reference = runOfficialPython(
        dir,
        [
          'from task_eval.llm_as_judge import get_judge_prompt, _parse_judge_response',
          'records = json.load(open(ROOT + "/evaluation_framework/output/judged_v3.json"))',
          `replies = ${JSON.stringify(REPLIES.map(([reply]) => reply))}`,
          'print(json.dumps({"prompts": [get_judge_prompt(r.get("category") or "default", r.get("evidence", ""), r.get("prediction", ""), r.get("ground_truth") or r.get("answer", "") or "") for r in records], "parsed": [list(_parse_judge_response(x)) for x in replies]}))',
        ].join('\n'),
      ) as { prompts: string[]; parsed: Array<[string, string]> };
      records.forEach((record, index) => {
        const prompt = buildLocomoPlusJudgePrompt({
          category: record.category,
          evidence: record.evidence,
          prediction: record.prediction,
          gold: String(record.ground_truth ?? ''),
        });
        if (prompt !== reference.prompts[index])
          expect(prompt, `record ${index}`).toBe(reference.prompts[index]);
      });
      expect(REPLIES.map(([reply]) => Object.values(parseLocomoPlusJudgeReply(reply)))).toEqual(
        reference.parsed,
      );
    });
  },
);

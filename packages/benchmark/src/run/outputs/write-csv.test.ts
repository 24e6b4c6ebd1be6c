import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import { samplesCsv } from './write-csv.js';

const HOSTILE = {
  question_id: `+cmd|' /C calc'!A0`,
  session_id: "@SUM(1+1)*cmd|' /C calc'!A0",
  hypothesis: '=HYPERLINK("http://evil.example","x")',
  error: "-2+3+cmd|' /C calc'!A0",
  tab: '\t=1+1',
  cr: '\r=1+1',
  label: '=HYPERLINK("http://evil.example","x")',
};

function sample(questionId: string, hypothesis: string, recall: number, retrieveMs: number): Sample {
  return {
    question_id: questionId,
    position: 0,
    question_type: 'single-session-user',
    abstention: false,
    no_target: false,
    gold_sessions: [],
    hits: [{ id: HOSTILE.session_id, session_id: HOSTILE.session_id, rank: 1, score: 1, routes: {} }],
    metrics: { 'session.recall_any@5': recall, 'delta.score': -0.25 },
    hypothesis,
    judge: null,
    usage: {},
    latency_ms: { index: 0, retrieve: retrieveMs },
    error: HOSTILE.error,
  };
}

const samples = [
  sample(HOSTILE.question_id, HOSTILE.hypothesis, 1, 12.5),
  sample(HOSTILE.tab, HOSTILE.cr, 0, -3),
];

describe('samples.csv', () => {
  it('escapes every cell a spreadsheet would run as a formula with a leading quote (OWASP)', () => {
    const csv = samplesCsv(samples, HOSTILE.label);
    const [header, first] = csv.split('\n');
    expect(header).toBe(
      'question_id,question_type,abstention,no_target,in_retrieval_means,in_means,session.recall_any@5,delta.score,top_session,hypothesis,judge_label,retrieve_ms,error,label,errata',
    );
    expect(first).toBe(
      `'+cmd|' /C calc'!A0,single-session-user,false,false,false,false,1,-0.25,'@SUM(1+1)*cmd|' /C calc'!A0,"'=HYPERLINK(""http://evil.example"",""x"")",,12.5,'-2+3+cmd|' /C calc'!A0,"'=HYPERLINK(""http://evil.example"",""x"")",`,
    );
    // No cell (quoted or not) begins with a formula character.
    for (const cell of csv.split(/,|\n/))
      expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r](?!0\.25$|3$)/);
  });

  it('shows control characters of every text cell as \\xNN, as the terminal does (no raw ESC)', () => {
    const hostile: Sample = {
      ...sample('q\u001b]0;PWNED\u0007', 'Yes\u001b[2J\u009b', 1, 1),
      question_type: '\u001b[31mred',
      hits: [{ id: 's', session_id: 'folder\u001bname', rank: 1, score: 1, routes: {} }],
      error: 'server said \u001b[H',
    };
    const csv = samplesCsv([hostile], 'label\u0007');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be left
    expect(csv).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const row = csv.split('\n')[1]!;
    expect(row).toContain('q\\x1b]0;PWNED\\x07');
    expect(row).toContain('\\x1b[31mred');
    expect(row).toContain('folder\\x1bname');
    expect(row).toContain('Yes\\x1b[2J\\x9b');
    expect(row).toContain('server said \\x1b[H');
    expect(row).toContain('label\\x07');
  });

  it('keeps numbers numbers for pandas, negative ones included', (context) => {
    const probe = spawnSync('python3', ['-c', 'import pandas'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      context.skip(
        `pandas is not installed (python3 -c "import pandas" failed): pip install pandas to run this test`,
      );
      return;
    }
    const path = join(mkdtempSync(join(tmpdir(), 'lme-csv-')), 'samples.csv');
    writeFileSync(path, samplesCsv(samples, HOSTILE.label));
    const script = [
      'import json, sys, pandas',
      'frame = pandas.read_csv(sys.argv[1])',
      'print(json.dumps({c: str(frame[c].dtype) for c in frame.columns}))',
      'print(json.dumps(frame[["session.recall_any@5", "delta.score", "retrieve_ms"]].values.tolist()))',
      'print(json.dumps(frame["question_id"].tolist()))',
    ].join('\n');
    const result = spawnSync('python3', ['-c', script, path], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const [types, numbers, ids] = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(types).toMatchObject({
      'session.recall_any@5': 'int64',
      'delta.score': 'float64',
      retrieve_ms: 'float64',
      abstention: 'bool',
    });
    expect(numbers).toEqual([
      [1, -0.25, 12.5],
      [0, -0.25, -3],
    ]);
    expect(ids).toEqual([`'${HOSTILE.question_id}`, `'${HOSTILE.tab}`]);
  });
});

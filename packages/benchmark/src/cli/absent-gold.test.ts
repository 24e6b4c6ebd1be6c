import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';

describe('an evidence-convention gold session absent from its haystack', () => {
  it('is flagged per question (gold_absent) and named in a warning, its figures unchanged', () => {
    const records = (
      JSON.parse(
        gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'))).toString(
          'utf8',
        ),
      ) as LongMemEvalRecord[]
    )
      .filter((record) => !record.question_id.endsWith('_abs'))
      .slice(0, 3);
    const dir = mkdtempSync(join(tmpdir(), 'lme-absent-gold-'));
    const run = (name: string, data: LongMemEvalRecord[]) => {
      writeFileSync(join(dir, `${name}.json`), JSON.stringify(data));
      const result = runCli([
        'run',
        '--dataset',
        join(dir, `${name}.json`),
        '--preset',
        'bm25-official',
        '--convention',
        'evidence',
        '--out',
        dir,
        '--run-id',
        name,
      ]);
      const samples = readFileSync(join(dir, name, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      return { result, samples };
    };
    const clean = run('clean', records);
    expect(clean.result.status).toBe(0);
    expect(clean.result.stderr).not.toMatch(/missing from the haystack/);
    expect(clean.samples.every((sample) => sample.gold_absent === undefined)).toBe(true);

    const spoiled = structuredClone(records);
    spoiled[0]!.answer_session_ids.push('ghost_session');
    spoiled[2]!.answer_session_ids = ['ghost_a', 'ghost_b'];
    const flagged = run('flagged', spoiled);
    expect(flagged.result.status).toBe(0);
    expect(flagged.result.stderr).toContain(
      `warning: 2 questions have evidence sessions missing from the haystack (gold_absent in samples.jsonl; ${records[0]!.question_id}, ${records[2]!.question_id}); they count as not retrieved in every recall figure: fix the dataset, or set them aside with an errata file (--errata).`,
    );
    expect(flagged.samples.map((sample) => sample.gold_absent)).toEqual([
      ['ghost_session'],
      undefined,
      ['ghost_a', 'ghost_b'],
    ]);
    // Scored as before: never retrieved, so recall_all drops to 0 and recall_any holds.
    expect(flagged.samples[0].metrics['session.recall_all@5']).toBe(0);
    expect(flagged.samples[0].metrics['session.recall_any@5']).toBe(
      clean.samples[0].metrics['session.recall_any@5'],
    );
    expect(flagged.samples[1].metrics).toEqual(clean.samples[1].metrics);
    expect(flagged.samples[2].metrics['session.recall_any@50']).toBe(0);
  }, 60_000);
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSummaryTable } from '../run/outputs/render-table.js';
import { summaryCsv } from '../run/outputs/write-csv.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { evaluateGate, parseThreshold } from './gate.js';
import { readRun, readSamples, readSummaryOrRun } from './read-run.js';

const line = (id: string) =>
  JSON.stringify({
    question_id: id,
    question_type: 'multi-session',
    abstention: false,
    metrics: { m: 1 },
    error: null,
  });

function samplesFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lme-samples-')), 'samples.jsonl');
  writeFileSync(path, text);
  return path;
}

describe('readSamples', () => {
  it('drops a torn last line (no newline, not JSON) with a warning', () => {
    const path = samplesFile(`${line('a')}\n${line('b')}\n${line('c').slice(0, 30)}`);
    const { samples, warnings } = readSamples(path);
    expect(samples.map((sample) => sample.question_id)).toEqual(['a', 'b']);
    expect(warnings).toEqual([
      `${path} ends in a torn line (the run was interrupted mid-write); it was dropped.`,
    ]);
  });

  it('keeps a complete last line that lacks only its newline', () => {
    const { samples, warnings } = readSamples(samplesFile(`${line('a')}\n${line('b')}`));
    expect(samples).toHaveLength(2);
    expect(warnings).toEqual([]);
  });

  it('fails on a bad line in the middle, naming file and line', () => {
    const broken = samplesFile(`${line('a')}\n{"question_id":\n${line('b')}\n`);
    expect(() => readSamples(broken)).toThrow(`${broken}: line 2 is not valid JSON`);
    const cut = samplesFile(`${line('a')}\n${line('b').slice(0, 20)}\n`);
    expect(() => readSamples(cut)).toThrow(`${cut}: line 2 is not valid JSON`);
    const incomplete = samplesFile(`${line('a')}\n{"question_id":"b"}\n`);
    expect(() => readSamples(incomplete)).toThrow(
      `${incomplete} line 2: field question_type is invalid (expected string, received undefined)`,
    );
  });

  it('keeps the last line of a question written twice (re-run after an error)', () => {
    const retried = JSON.stringify({ ...JSON.parse(line('a')), metrics: { m: 0 } });
    const { samples } = readSamples(samplesFile(`${retried}\n${line('b')}\n${line('a')}\n`));
    expect(samples.map((sample) => [sample.question_id, sample.metrics.m])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
});

describe('readRun', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeSampleRun(mkdtempSync(join(tmpdir(), 'lme-read-')), 'whole', { tokenizer: 'official' });
  });

  it('reads config, samples and summary of a real run', () => {
    const run = readRun(dir);
    expect(run.config.run_id).toBe('whole');
    expect(run.config.config.tokenizer).toBe('official');
    expect(run.samples).toHaveLength(22);
    expect(run.summary?.metrics.overall.n).toBe(18);
    expect(run.warnings).toEqual([]);
  });

  it('reads a run torn mid-write: the last line is dropped, the rest kept', () => {
    const torn = join(mkdtempSync(join(tmpdir(), 'lme-torn-')), 'torn');
    cpSync(dir, torn, { recursive: true });
    const text = readFileSync(join(torn, 'samples.jsonl'), 'utf8');
    const lines = text.trimEnd().split('\n');
    writeFileSync(
      join(torn, 'samples.jsonl'),
      `${lines.slice(0, 21).join('\n')}\n${lines[21]!.slice(0, 100)}`,
    );
    // A run torn mid-write never finished, so its config.json records no fingerprint.
    const manifest = JSON.parse(readFileSync(join(torn, 'config.json'), 'utf8'));
    delete manifest.fingerprint;
    delete manifest.finished_at;
    writeFileSync(join(torn, 'config.json'), JSON.stringify(manifest));
    const run = readRun(torn);
    expect(run.samples).toHaveLength(21);
    expect(run.warnings).toEqual([expect.stringMatching(/samples\.jsonl ends in a torn line/)]);
  });

  it('names the folder that is missing or incomplete', () => {
    expect(() => readRun('/nonexistent/run')).toThrow('Run folder /nonexistent/run does not exist.');
    const empty = mkdtempSync(join(tmpdir(), 'lme-empty-'));
    expect(() => readRun(empty)).toThrow(`Run folder ${empty} has no config.json.`);
  });

  it('reads a summary from a run folder or a lone summary.json', () => {
    expect(readSummaryOrRun(dir).run?.samples).toHaveLength(22);
    const alone = readSummaryOrRun(join(dir, 'summary.json'));
    expect(alone.run).toBeUndefined();
    expect(alone.summary.run_id).toBe('whole');
    const unfinished = join(mkdtempSync(join(tmpdir(), 'lme-unfinished-')), 'u');
    cpSync(dir, unfinished, { recursive: true });
    rmSync(join(unfinished, 'summary.json'));
    expect(() => readSummaryOrRun(unfinished)).toThrow(/has no summary\.json: the run did not finish/);
  });

  it("reads a summary.json written before lme recorded each metric's n, and gates and tabulates it", () => {
    // The shape lme wrote before `counts`: one n per row, no errors, no_target or first_error.
    const old = {
      run_id: 'old',
      dataset: 'sample',
      convention: 'official',
      exclusion: 'A',
      n: 22,
      metrics: {
        overall: {
          n: 18,
          metrics: { 'session.recall_all@5': 0.8333333333333334, 'session.recall_any@5': 0.7777777777777778 },
        },
        by_type: {
          'multi-session': { n: 3, metrics: { 'session.recall_all@5': 0.6666666666666666 } },
        },
        abstention: { n: 4, metrics: { 'session.recall_all@5': 1 } },
      },
    };
    const folder = join(mkdtempSync(join(tmpdir(), 'lme-old-')), 'old');
    cpSync(dir, folder, { recursive: true });
    writeFileSync(join(folder, 'summary.json'), JSON.stringify(old));
    for (const summary of [
      readRun(folder).summary!,
      readSummaryOrRun(join(folder, 'summary.json')).summary,
    ]) {
      expect(summary.metrics.overall.counts).toEqual({
        'session.recall_all@5': 18,
        'session.recall_any@5': 18,
      });
      expect(summary.metrics.by_type['multi-session']!.counts).toEqual({ 'session.recall_all@5': 3 });
      expect(summaryCsv(summary)).toContain(
        'old,default,multi-session,session.recall_all@5,0.6666666666666666,3,,',
      );
      expect(renderSummaryTable(summary)).toContain('| overall');
      const gate = evaluateGate({
        summary,
        summaryPath: folder,
        thresholds: [parseThreshold('session.recall_all@5>=0.8')],
        baseline: { summary, path: folder },
        perType: true,
      });
      expect(gate.checks.map((check) => [check.scope, check.n, check.passed])).toEqual([
        ['overall', 18, true],
        ['overall', 18, true],
        ['overall', 18, true],
        ['multi-session', 3, true],
      ]);
    }
  });
});

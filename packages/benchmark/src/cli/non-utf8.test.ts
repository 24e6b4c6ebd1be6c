import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';

/** `text`'s bytes with its first `"question": "` value's first character replaced by `bad`. */
function spoil(text: Buffer, bad: number): { bytes: Buffer; offset: number } {
  const match = /"question":\s*"/.exec(text.toString('latin1'))!;
  const at = match.index + match[0].length;
  const bytes = Buffer.from(text);
  bytes[at] = bad;
  return { bytes, offset: at };
}

const BM25 = ['--preset', 'bm25-official'];

describe('bytes that are not UTF-8', () => {
  const sample = gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz')));

  it('in a dataset file: refused in one sentence naming the file and the byte offset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-non-utf8-'));
    const path = join(dir, 'spoiled.json');
    const { bytes, offset } = spoil(sample, 0xff);
    writeFileSync(path, bytes);
    const result = runCli([
      'run',
      '--dataset',
      path,
      '--preset',
      'bm25-official',
      '--out',
      dir,
      '--run-id',
      'r',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `lme: ${path}: byte ${offset} (0xff) of the JSON, in record 0, is not UTF-8; a dataset file must be UTF-8 text: save it as UTF-8`,
    );
  }, 60_000);

  it('in a LoCoMo file (read whole): refused naming the file and the byte offset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-non-utf8-'));
    const path = join(dir, 'locomo.json');
    // One sample as a JSON object: read whole, not streamed.
    const [first] = JSON.parse(readFileSync(join(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'), 'utf8'));
    const text = Buffer.from(JSON.stringify(first, null, 2));
    const at = text.indexOf('"text": "') + '"text": "'.length;
    const bytes = Buffer.from(text);
    bytes[at] = 0xc0;
    writeFileSync(path, bytes);
    const result = runCli(['run', '--dataset', path, '--preset', 'bm25', '--out', dir, '--run-id', 'r']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${path}: byte ${at} (0xc0) is not UTF-8; a dataset file must be UTF-8 text: save it as UTF-8.`,
    );
  }, 60_000);

  it('in a run folder being read: refused naming the file and the byte offset, nothing rewritten', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-non-utf8-'));
    const base = runCli([
      'run',
      '--dataset',
      'sample',
      ...BM25,
      '--limit',
      '2',
      '--out',
      out,
      '--run-id',
      'r',
    ]);
    expect(base.status).toBe(0);
    const dir = join(out, 'r');
    const copy = join(out, 'copy');
    cpSync(dir, copy, { recursive: true });
    const samples = readFileSync(join(copy, 'samples.jsonl'));
    const at = samples.indexOf('"question_type":"') + '"question_type":"'.length;
    samples[at] = 0xfe;
    writeFileSync(join(copy, 'samples.jsonl'), samples);
    const csvBefore = readFileSync(join(copy, 'samples.csv'));
    const result = runCli(['report', copy]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${join(copy, 'samples.jsonl')}: byte ${at} (0xfe) is not UTF-8; lme reads UTF-8 text only: save the file as UTF-8.`,
    );
    expect(readFileSync(join(copy, 'samples.csv'))).toEqual(csvBefore);
  }, 60_000);
});

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';
import { detectDatasetFormat, loadAnyDataset } from './load-dataset.js';

const locomoFixture = resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json');
const longMemEvalSample = resolve(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz');
const dir = mkdtempSync(join(tmpdir(), 'lme-any-dataset-'));

describe('loadAnyDataset', () => {
  it('recognises the LongMemEval sample and loads it as LongMemEval', async () => {
    expect(await detectDatasetFormat(longMemEvalSample)).toBe('longmemeval');
    const loaded = await loadAnyDataset(longMemEvalSample);
    expect(loaded.format).toBe('longmemeval');
    expect(loaded.records).toHaveLength(22);
  });

  it('recognises LoCoMo files: plain, gzipped, and a single conversation object', async () => {
    const text = readFileSync(locomoFixture, 'utf8');
    const gzipped = join(dir, 'locomo.json.gz');
    writeFileSync(gzipped, gzipSync(text));
    const single = join(dir, 'one-conversation.json');
    writeFileSync(single, JSON.stringify(JSON.parse(text)[0]));
    const plain = await loadAnyDataset(locomoFixture);
    expect(plain.format).toBe('locomo');
    expect(plain.records).toHaveLength(7);
    for (const path of [gzipped, single]) {
      const loaded = await loadAnyDataset(path);
      expect(loaded.format).toBe('locomo');
      expect(loaded.records).toEqual(plain.records);
    }
    expect((await loadAnyDataset(gzipped)).sha256).toBe(plain.sha256);
  });

  it('leaves other JSON to the LongMemEval loader, whose error names the field', async () => {
    const path = join(dir, 'other.json');
    writeFileSync(path, JSON.stringify([{ question_id: 'q1', conversation: {} }]));
    expect(await detectDatasetFormat(path)).toBe('longmemeval');
    await expect(loadAnyDataset(path)).rejects.toThrow(/other\.json: question q1: field "question"/);
  });

  // Issue 36: a LoCoMo conversation without "conversation" was reported as a LongMemEval record
  // without "question_id".
  it('names the LoCoMo field a conversation lacks', async () => {
    for (const field of ['conversation', 'qa']) {
      const conversations = JSON.parse(readFileSync(locomoFixture, 'utf8'));
      const first = Array.isArray(conversations) ? conversations[0] : conversations;
      delete first[field];
      const path = join(dir, `no-${field}.json`);
      writeFileSync(path, JSON.stringify(conversations));
      expect(await detectDatasetFormat(path)).toBe('locomo');
      await expect(loadAnyDataset(path)).rejects.toThrow(
        `${path}: conversation ${first.sample_id}: field "${field}" is missing or not ${field === 'qa' ? 'an array' : 'an object'}`,
      );
    }
  });

  it('names a missing file', async () => {
    await expect(loadAnyDataset(join(dir, 'absent.json'))).rejects.toThrow(/absent\.json: no such file/);
  });

  it('says what a JSON object that is not a LoCoMo conversation is, instead of calling it LoCoMo', async () => {
    const path = join(dir, 'object.json');
    writeFileSync(path, JSON.stringify({ questions: [], version: 2 }));
    const message = `${path}: the file is one JSON object (keys: questions, version), but lme reads a JSON array of LongMemEval question records, or a REALTALK chat (one object with session_<n>, session_<n>_date_time and qa) or a folder of Chat_<n>_<A>_<B>.json, or a LoCoMo file (an array of conversations, or one conversation with "conversation" and "qa")`;
    await expect(detectDatasetFormat(path)).rejects.toThrow(message);
    await expect(loadAnyDataset(path)).rejects.toThrow(message);
  });

  it.each([
    ['an empty .json', 'empty.json', () => Buffer.alloc(0), 'the file is empty (0 bytes)'],
    ['an empty .json.gz', 'empty.json.gz', () => Buffer.alloc(0), 'the file is empty (0 bytes)'],
    [
      'gzip bytes in a .json',
      'zipped.json',
      () => readFileSync(longMemEvalSample),
      'the file is gzip-compressed but its name does not end in .gz; add .gz to its name',
    ],
    [
      'plain JSON in a .json.gz',
      'plain.json.gz',
      () => gunzipSync(readFileSync(longMemEvalSample)),
      'the name ends in .gz but the file is not gzip-compressed; rename it without .gz if it is plain JSON',
    ],
  ])('names the path of %s', async (_, name, bytes, problem) => {
    const path = join(dir, name);
    writeFileSync(path, bytes());
    await expect(loadAnyDataset(path)).rejects.toThrow(`${path}: ${problem}`);
  });

  it('names the path of a directory', async () => {
    const path = join(dir, 'folder.json');
    mkdirSync(path, { recursive: true });
    await expect(loadAnyDataset(path)).rejects.toThrow(`${path}: is a directory, not a dataset file`);
  });

  it('fails on junk between records and on non-object items, naming the file and position', async () => {
    const records = JSON.parse(gunzipSync(readFileSync(longMemEvalSample)).toString('utf8')) as unknown[];
    const [first, second] = records.map((record) => JSON.stringify(record));
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, `[${first} garbage, ${second}]`);
    await expect(loadAnyDataset(junk)).rejects.toThrow(
      `${junk}: unexpected text between records at byte ${Buffer.byteLength(first!) + 2} of the JSON, after 1 record`,
    );
    const item = join(dir, 'item.json');
    writeFileSync(item, `[${first}, 42, ${second}]`);
    await expect(loadAnyDataset(item)).rejects.toThrow(
      `${item}: array item 2 is not a JSON object at byte ${Buffer.byteLength(first!) + 3} of the JSON, after 1 record`,
    );
  });

  it('reports LoCoMo warnings through onWarning, with the path', async () => {
    const warnings: string[] = [];
    await loadAnyDataset(locomoFixture, { onWarning: (warning) => warnings.push(warning) });
    expect(warnings).toEqual([
      expect.stringMatching(/^.*locomo-mini\.json: question conv-mini_q4 .*"D1:2; D3:4"/),
    ]);
  });
});

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../config/run-sections.js';
import { INPUT_LIMITS } from '../../dataset/input-limits.js';
import { datasetFileSha256 } from '../../run/checks/dataset-checksum.js';
import { openQuestionSource } from '../../run/selection/question-source.js';
import { isAbstention } from '../longmemeval-record.js';
import { loadBeam } from './load-beam.js';

const TIER = resolve(import.meta.dirname, 'fixtures', 'tier');
const limits = INPUT_LIMITS as { -readonly [key in keyof typeof INPUT_LIMITS]: number };
const saved = { ...INPUT_LIMITS };
afterEach(() => Object.assign(limits, saved));

/** A copy of the stand-in tier's conversation 2 under `name`, in a fresh folder: [tier, conversation]. */
function tierCopy(name = '2'): [string, string] {
  const tier = mkdtempSync(join(tmpdir(), 'lme-beam-hostile-'));
  cpSync(join(TIER, '2'), join(tier, name), { recursive: true });
  return [tier, join(tier, name)];
}

function editProbing(folder: string, edit: (value: Record<string, Array<Record<string, unknown>>>) => void) {
  const path = join(folder, 'probing_questions', 'probing_questions.json');
  const value = JSON.parse(readFileSync(path, 'utf8'));
  edit(value);
  writeFileSync(path, JSON.stringify(value));
}

describe('BEAM files go through the guarded reader', () => {
  it('refuses a chat.json that is a FIFO at once, naming it, instead of waiting for a writer', async () => {
    const [tier, folder] = tierCopy();
    const chat = join(folder, 'chat.json');
    rmSync(chat);
    execFileSync('mkfifo', [chat]);
    await expect(loadBeam(tier)).rejects.toThrow(
      `${chat} is not a regular file (a device, a pipe or a socket); lme reads this from a regular file.`,
    );
  });

  it('refuses a chat.json linked to /dev/zero as a device', async () => {
    const [tier, folder] = tierCopy();
    const chat = join(folder, 'chat.json');
    rmSync(chat);
    symlinkSync('/dev/zero', chat);
    await expect(loadBeam(tier)).rejects.toThrow(`${chat} is not a regular file`);
  });

  it('refuses a chat.json over 512 MB on its size, before reading it', async () => {
    const [tier, folder] = tierCopy();
    const chat = join(folder, 'chat.json');
    truncateSync(chat, 600 * 1024 * 1024); // sparse: no disk, no read
    await expect(loadBeam(tier)).rejects.toThrow(
      `${chat}: is more than 512 MB, the most lme reads whole (a decompression bomb, or not a dataset)`,
    );
    // The run's dataset checksum refuses it too, before hashing 600 MB.
    await expect(datasetFileSha256(tier)).rejects.toThrow(`${chat}: is more than 512 MB`);
  });

  it('refuses a byte that is not UTF-8, naming its offset', async () => {
    const [tier, folder] = tierCopy();
    const chat = join(folder, 'chat.json');
    const text = readFileSync(chat);
    const at = text.indexOf('sourdough');
    text[at] = 0xe9;
    writeFileSync(chat, text);
    await expect(loadBeam(tier)).rejects.toThrow(`${chat}: byte ${at} (0xe9) is not UTF-8`);
  });

  it('refuses a message over the string cap, naming the file and where', async () => {
    limits.stringBytes = 1024 * 1024;
    const [tier, folder] = tierCopy();
    const chat = join(folder, 'chat.json');
    const value = JSON.parse(readFileSync(chat, 'utf8'));
    value[0].turns[1][0].content = 'x'.repeat(1536 * 1024);
    writeFileSync(chat, JSON.stringify(value));
    await expect(loadBeam(tier)).rejects.toThrow(
      `${chat}: the string at [0].turns[1][0].content holds more than 1 MB`,
    );
  });

  it('refuses a 100k-deep source_chat_ids in one sentence naming the file and the field', async () => {
    const [tier, folder] = tierCopy();
    const probing = join(folder, 'probing_questions', 'probing_questions.json');
    const original = readFileSync(probing, 'utf8');
    expect(original).toContain('"source_chat_ids": [0]');
    const text = original.replace(
      '"source_chat_ids": [0]',
      `"source_chat_ids": ${'['.repeat(100_000)}0${']'.repeat(100_000)}`,
    );
    writeFileSync(probing, text);
    await expect(loadBeam(tier)).rejects.toThrow(
      `${probing}: the value at information_extraction[0].source_chat_ids[0][0][0][0][0]… is nested more than 64 levels deep`,
    );
  });

  it('refuses a chat.json holding [] (an empty haystack)', async () => {
    const [tier, folder] = tierCopy();
    writeFileSync(join(folder, 'chat.json'), '[]');
    await expect(loadBeam(tier)).rejects.toThrow(`${folder}: chat.json holds no conversation`);
  });
});

describe('BEAM silences', () => {
  it('warns, naming the question and the field, about gold ids written as "0", 0.5, null or true', async () => {
    const [tier] = tierCopy();
    editProbing(join(tier, '2'), (value) => {
      value.information_extraction![0]!.source_chat_ids = ['0', 0.5, null, true, 0];
    });
    const { warnings, records } = await loadBeam(tier);
    expect(warnings).toEqual([
      `${join(tier, '2')}: question beam_c2_information_extraction_1 (probing_questions.json information_extraction[0]): field "source_chat_ids" holds "0", 0.5, null, true, not a message id (a whole number); left out of the gold`,
    ]);
    expect(records[0]!.beam_evidence_messages).toEqual([0]);
  });

  it('hands the loader’s warnings to lme run (the question source a run reads), each once', async () => {
    const [tier] = tierCopy();
    editProbing(join(tier, '2'), (value) => {
      value.information_extraction![0]!.source_chat_ids = [0, 99];
    });
    const warnings: string[] = [];
    const config = parseRunConfig({ retriever: 'bm25', convention: 'evidence' });
    const source = await openQuestionSource(tier, config, undefined, undefined, (message) =>
      warnings.push(message),
    );
    let questions = 0;
    for await (const _item of source.items) questions++;
    expect(questions).toBe(2);
    expect(warnings).toEqual([
      `${join(tier, '2')}: question beam_c2_information_extraction_1 names message 99 that is not in chat.json (left out of the gold)`,
    ]);
  });

  it('does not make a folder named 1_abs turn its questions into abstention questions', async () => {
    const [tier] = tierCopy('1_abs');
    const { records } = await loadBeam(tier);
    expect(records.map((record) => record.question_id)).toEqual([
      'beam_c1-abs_information_extraction_1',
      'beam_c1-abs_preference_following_1',
    ]);
    expect(records.filter((record) => isAbstention(record.question_id))).toEqual([]);
    expect(records[0]!.beam_conversation).toBe('1_abs');
  });

  it('checksums only the files the loader reads: links and unrelated files beside them are never walked', async () => {
    const [tier] = tierCopy();
    const clean = await datasetFileSha256(tier);
    symlinkSync('.', join(tier, 'dot'));
    symlinkSync('/', join(tier, 'root'));
    symlinkSync(join(tier, 'loop-b'), join(tier, 'loop-a'));
    symlinkSync(join(tier, 'loop-a'), join(tier, 'loop-b'));
    writeFileSync(join(tier, 'unrelated.bin'), 'not read');
    expect(await datasetFileSha256(tier)).toBe(clean);
  });
});

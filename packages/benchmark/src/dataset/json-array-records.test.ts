import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readJsonArrayObjects } from './json-array-records.js';

const dir = mkdtempSync(join(tmpdir(), 'lme-json-array-'));

async function objectsOf(text: string, gzip = false): Promise<string[]> {
  const path = join(dir, gzip ? 'file.json.gz' : 'file.json');
  writeFileSync(path, gzip ? gzipSync(text) : text);
  const objects: string[] = [];
  for await (const object of readJsonArrayObjects(path)) objects.push(object);
  return objects;
}

describe('readJsonArrayObjects', () => {
  it('yields each top-level object, whitespace and nesting included', async () => {
    expect(await objectsOf(' [\n {"a": [1, {"b": "}"}]} ,{"c":"\\\\"}\n]\n')).toEqual([
      '{"a": [1, {"b": "}"}]}',
      '{"c":"\\\\"}',
    ]);
    expect(await objectsOf('[]')).toEqual([]);
  });

  it.each([
    [
      'junk between records',
      '[{"a":1} junk, {"b":2}]',
      /unexpected text between records at byte 9 of the JSON, after 1 record \(found "junk, \{\\"b\\":2\}\]"\)/,
    ],
    [
      'a number item',
      '[{"a":1}, 42, {"b":2}]',
      /array item 2 is not a JSON object at byte 10 of the JSON, after 1 record \(found "42/,
    ],
    [
      'a string item',
      '["x", {"a":1}]',
      /array item 1 is not a JSON object at byte 1 of the JSON, after 0 records \(found "\\"x\\"/,
    ],
    ['an array item', '[{"a":1},[{"b":2}]]', /array item 2 is not a JSON object at byte 9/],
    ['a missing comma', '[{"a":1} {"b":2}]', /a "," is missing between records at byte 9/],
    ['a trailing comma', '[{"a":1},]', /a "," is followed by no record at byte 9/],
    ['two commas', '[{"a":1},,{"b":2}]', /an array item is missing at byte 9/],
    ['text after the array', '[{"a":1}] trailing', /unexpected text after the JSON array at byte 10/],
    [
      'an object instead of an array',
      '{"a":1}',
      /the file is one JSON object, not a JSON array of question records at byte 0/,
    ],
    ['a truncated array', '[{"a":1}, {"b":', /the JSON ends early after 1 record \(truncated file\?\)/],
    ['only whitespace', '  \n', /the file holds no JSON array/],
  ])('fails on %s, naming the byte and the records before it', async (_, text, message) => {
    await expect(objectsOf(text)).rejects.toThrow(message);
    await expect(objectsOf(text, true)).rejects.toThrow(message);
  });
});

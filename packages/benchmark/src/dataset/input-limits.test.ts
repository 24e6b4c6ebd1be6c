import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { INPUT_LIMITS } from './input-limits.js';

const MB = 1024 * 1024;
const limits = INPUT_LIMITS as { -readonly [key in keyof typeof INPUT_LIMITS]: number };
const saved = { ...INPUT_LIMITS };
afterEach(() => Object.assign(limits, saved));

/** A gzip file of `head`, `fill` bytes of "a", then `tail`: megabytes that compress to kilobytes. */
function bomb(name: string, head: string, fill: number, tail: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lme-bomb-')), name);
  writeFileSync(
    path,
    gzipSync(Buffer.concat([Buffer.from(head), Buffer.alloc(fill, 'a'), Buffer.from(tail)])),
  );
  return path;
}

describe('dataset input limits', () => {
  it('refuses one string longer than the limit, naming the file, before holding it', async () => {
    const path = bomb('s.json.gz', '[{"question_id": "', INPUT_LIMITS.stringBytes + 8 * MB, '"}]');
    const before = process.memoryUsage().rss;
    await expect(loadAnyDataset(path)).rejects.toThrow(
      new RegExp(
        `^${path}: a JSON string at byte \\d+ of the JSON, after 0 records, is larger than 64 MB, the most lme reads \\(a decompression bomb, or not a dataset\\)$`,
      ),
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * MB);
  });

  it('refuses a record larger than the limit', async () => {
    limits.recordBytes = 4 * MB;
    const many = `"${'b'.repeat(1000)}",`.repeat(6000);
    const path = bomb('r.json.gz', `[{"question_id": "q", "x": [${many}`, 0, '"end"]}]');
    await expect(loadAnyDataset(path)).rejects.toThrow(
      /: record 1 at byte \d+ of the JSON, after 0 records, is larger than 4 MB, the most lme reads/,
    );
  });

  it('refuses a file read whole that decompresses past the limit', async () => {
    limits.wholeFileBytes = 2 * MB;
    const path = bomb('l.json.gz', '{"conversation": {}, "qa": [], "x": "', 3 * MB, '"}');
    await expect(loadAnyDataset(path)).rejects.toThrow(
      `${path}: decompresses to more than 2 MB, the most lme reads whole (a decompression bomb, or not a dataset)`,
    );
  });

  it('names a byte order mark at the start of a JSON array file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lme-bom-')), 'bom.json');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"question_id": "q"}]')]),
    );
    await expect(loadAnyDataset(path)).rejects.toThrow(
      `${path}: the file starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow: save it without one at byte 0 of the JSON`,
    );
  });
});

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../testing/run-cli.js';
import { readFts5Statistics } from './fts5-statistics-file.js';

describe('--fts5-statistics file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'lme-fts5-statistics-'));

  it('reads rows, tokens and the rows of each term', () => {
    const path = join(folder, 'good.json');
    writeFileSync(path, JSON.stringify({ rows: 4, tokens: 34, documentFrequency: { cat: 2 } }));
    const statistics = readFts5Statistics(path);
    expect([statistics.rows, statistics.tokens, statistics.documentFrequency.get('cat')]).toEqual([4, 34, 2]);
  });

  it('refuses a file of another shape in one sentence naming it', () => {
    const path = join(folder, 'bad.json');
    writeFileSync(path, JSON.stringify({ rows: 4 }));
    expect(() => readFts5Statistics(path)).toThrow(`${path} is not FTS5 statistics`);
    expect(() => readFts5Statistics(join(folder, 'missing.json'))).toThrow(
      /missing\.json is not FTS5 statistics/,
    );
  });

  it('refuses a missing file with the run config, before any question and any results folder', () => {
    const out = join(folder, 'out');
    const run = runCli([
      ...['run', '-d', 'sample', '--retriever', 'fts5-bm25', '--fts5-statistics', join(folder, 'gone.json')],
      ...['--limit', '2', '--out', out],
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `${join(folder, 'gone.json')} is not FTS5 statistics (rows, tokens, documentFrequency): there is no such file (--fts5-statistics)`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

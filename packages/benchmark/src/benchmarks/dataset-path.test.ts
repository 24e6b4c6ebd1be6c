import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';
import { benchmarks } from './benchmark-registry.js';
import { resolveDatasetPath } from './dataset-path.js';

const catalog = Object.values(benchmarks()).flatMap((benchmark) => benchmark.catalog ?? []);

describe('--dataset <name> for every name lme datasets list shows', () => {
  it.each(catalog.map((entry) => [entry.name, entry]))(
    '%s is found in the data dir, or says in one sentence how to get its files',
    (name, entry) => {
      const empty = mkdtempSync(join(tmpdir(), 'lme-dataset-path-'));
      const where = entry.locate(empty);
      if (where.status === 'present') {
        expect(resolveDatasetPath(name, empty)).toBe(where.path);
        return;
      }
      // A tier a benchmark downloads says so in its own words (BEAM: the download command).
      const downloads = Object.values(benchmarks()).some((benchmark) =>
        benchmark.datasets?.names.includes(name),
      );
      expect(() => resolveDatasetPath(name, empty)).toThrow(
        downloads
          ? new RegExp(`^Dataset ${name} is not in .*; run \`lme datasets download ${name}\``)
          : `Dataset "${name}" is not at ${where.path}; ${entry.get}.`,
      );
    },
  );

  it('takes locomo from <data dir>/locomo10.json once it is there', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-dataset-path-'));
    copyFileSync(join(REPO_ROOT, 'datasets', 'fixtures', 'locomo-mini.json'), join(dataDir, 'locomo10.json'));
    expect(resolveDatasetPath('locomo', dataDir)).toBe(join(dataDir, 'locomo10.json'));
  });
});

describe('a --dataset that is neither a name nor a file', () => {
  it('names the close known name', () => {
    expect(() => resolveDatasetPath('locmo', REPO_ROOT)).toThrow(
      'Dataset "locmo" is neither a known name nor an existing file; did you mean locomo?',
    );
  });

  it('names the files beside a mistyped path', () => {
    const typed = join(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sampel.json.gz');
    expect(() => resolveDatasetPath(typed, REPO_ROOT)).toThrow(
      `Dataset "${typed}" is neither a known name nor an existing file; did you mean ${join(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sample.json.gz')}?`,
    );
  });
});

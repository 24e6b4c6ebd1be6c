import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';
import { parseThreshold } from './gate.js';
import { mergeGateSpecs, readGateFile } from './gate-file.js';

describe('readGateFile', () => {
  it('reads configs/gates/example.json', () => {
    const spec = readGateFile(join(REPO_ROOT, 'configs/gates/example.json'));
    expect(spec.thresholds).toContainEqual(parseThreshold('multi-session:session.recall_all@5>=0.7'));
    expect(spec.maxDrop).toBe(0.02);
    expect(spec.baseline).toBe('results/baselines/ci-s-subset/summary.json');
    expect(spec.allowErrors).toBe(0);
    expect(spec.allowSubset).toBe(false);
  });

  it('reads allowErrors and allowSubset, which flags replace', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lme-gate-')), 'gate.json');
    writeFileSync(path, JSON.stringify({ allowErrors: 2, allowSubset: true }));
    const spec = readGateFile(path);
    expect(spec).toMatchObject({ allowErrors: 2, allowSubset: true });
    expect(mergeGateSpecs(spec, { allowErrors: 0 })).toMatchObject({ allowErrors: 0, allowSubset: true });
    writeFileSync(path, JSON.stringify({ allowErrors: -1 }));
    expect(() => readGateFile(path)).toThrow(new RegExp(`Gate file ${path} is invalid: allowErrors: `));
  });

  it('names the file and the key at fault', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lme-gate-')), 'gate.json');
    writeFileSync(path, JSON.stringify({ min: { 'session.recall_all@5': '0.8' }, maxdrop: 1 }));
    expect(() => readGateFile(path)).toThrow(
      new RegExp(`Gate file ${path} is invalid: .*min\\.session\\.recall_all@5`),
    );
  });
});

describe('mergeGateSpecs', () => {
  it('lets a flag replace the same bound and add others', () => {
    const file = {
      thresholds: [parseThreshold('a>=0.8'), parseThreshold('a<=0.99'), parseThreshold('b>=0.5')],
      maxDrop: 0.02,
    };
    const merged = mergeGateSpecs(file, {
      thresholds: [parseThreshold('a>0.9'), parseThreshold('c>=1')],
      maxDrop: 0,
    });
    expect(merged.thresholds).toEqual([
      parseThreshold('a<=0.99'),
      parseThreshold('b>=0.5'),
      parseThreshold('a>0.9'),
      parseThreshold('c>=1'),
    ]);
    expect(merged.maxDrop).toBe(0);
  });
});

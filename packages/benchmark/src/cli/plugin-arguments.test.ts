import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginArguments } from './plugin-arguments.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('pluginArguments', () => {
  it('reads every --plugin form, in order, and stops at --', () => {
    expect(
      pluginArguments(['-d', 'sample', '--plugin', 'a.mjs', '--plugin=b.mjs,c', '--', '--plugin', 'd.mjs']),
    ).toEqual(['a.mjs', 'b.mjs', 'c']);
    expect(pluginArguments(['-d', 'sample', '--retriever', 'bm25'])).toEqual([]);
  });

  it("adds a --config file's plugins, relative paths from the file's folder, flat or under config", () => {
    dir = mkdtempSync(join(tmpdir(), 'lme-plugin-args-'));
    writeFileSync(join(dir, 'flat.yaml'), 'retriever: mine\nplugins:\n  - ./mine.mjs\n  - some-package\n');
    writeFileSync(join(dir, 'nested.json'), JSON.stringify({ config: { plugins: ['/abs/x.mjs'] } }));
    expect(pluginArguments(['--config', join(dir, 'flat.yaml'), '--plugin', 'z.mjs'])).toEqual([
      join(dir, 'mine.mjs'),
      'some-package',
      'z.mjs',
    ]);
    expect(pluginArguments([`--config=${join(dir, 'nested.json')}`])).toEqual(['/abs/x.mjs']);
    expect(pluginArguments(['--config', join(dir, 'missing.yaml')])).toEqual([]);
  });
});

import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { portsOf, prepareWorkspace, rewriteCommand, STAND_IN_EMBEDDER } from './documented-command-runner.js';
import { documentedBlocks, withoutComment } from './documented-commands.js';
import { REPO_ROOT } from './run-cli.js';

const page = [
  'Text.',
  '',
  '```sh',
  'lme run --dataset sample   # a comment',
  'lme run --dataset s \\',
  '  --preset bm25',
  '```',
  '',
  '<!-- lme-docs: skip needs the hub -->',
  '```bash',
  'lme datasets download s',
  '```',
  '<!-- lme-docs: exit 3 -->',
  '',
  '  ```sh',
  '  lme gate results/x --min "session.recall_all@5>=1"',
  '  ```',
  '```text',
  '$ lme explain results/x q1',
  '```',
  '```',
  'lme not a shell block',
  '```',
].join('\n');

describe('documentedBlocks', () => {
  const blocks = documentedBlocks(page, 'page.md');

  it('takes sh and bash blocks only, joining continued lines and dropping comments', () => {
    expect(blocks.map((block) => block.commands)).toEqual([
      ['lme run --dataset sample', 'lme run --dataset s --preset bm25'],
      ['lme datasets download s'],
      ['lme gate results/x --min "session.recall_all@5>=1"'],
    ]);
    expect(blocks.map((block) => block.line)).toEqual([3, 10, 15]);
  });

  it('reads the marker above a fence: a skip with its reason, an expected exit code', () => {
    expect(blocks.map((block) => [block.skip, block.expectedExit])).toEqual([
      [undefined, 0],
      ['needs the hub', 0],
      [undefined, 3],
    ]);
  });

  it('refuses a marker it does not know, naming the file and line', () => {
    expect(() => documentedBlocks('<!-- lme-docs: skip -->\n```sh\nlme run\n```\n', 'x.md')).toThrow(
      'x.md:1: a lme-docs marker is "skip <reason>" or "exit <code>" (got "skip").',
    );
  });

  it('keeps a # inside quotes or a word', () => {
    expect(withoutComment(`node -e 'a # b' --x=c#d # note`)).toBe(`node -e 'a # b' --x=c#d `);
  });
});

describe('rewriteCommand', () => {
  const context = { root: '/repo', ports: new Map([['8080', 41234]]) };

  it('runs the checkout lme for lme, pnpm lme and pnpm -s lme, leaving setup already done out', () => {
    expect(
      rewriteCommand(
        'npm i -g pnpm@10.34.9 && pnpm install --frozen-lockfile && pnpm lme datasets info s',
        context,
      ),
    ).toBe('node /repo/packages/benchmark/bin/lme.js datasets info s');
    expect(rewriteCommand('pnpm -s lme gate r > out.md', context)).toBe(
      'node /repo/packages/benchmark/bin/lme.js gate r > out.md',
    );
    expect(rewriteCommand('pnpm tsx scripts/x.ts', context)).toBe('/repo/node_modules/.bin/tsx scripts/x.ts');
  });

  it('gives runs and ablations the stand-in embedder, replacing a named one', () => {
    expect(rewriteCommand('lme run -d s --preset hybrid', context)).toBe(
      `node /repo/packages/benchmark/bin/lme.js run -d s --preset hybrid --embedder ${STAND_IN_EMBEDDER}`,
    );
    expect(rewriteCommand('lme ablate -d s --embedder hf:Xenova/bge-small-en-v1.5 --grid k=1', context)).toBe(
      `node /repo/packages/benchmark/bin/lme.js ablate -d s --embedder ${STAND_IN_EMBEDDER} --grid k=1`,
    );
  });

  it('maps documented ports, and knows which ones lme serve takes', () => {
    expect(rewriteCommand('lme gate r --provider-url http://127.0.0.1:8080', context)).toContain(
      '127.0.0.1:41234',
    );
    expect(portsOf(['lme serve --port 8787', 'lme run --provider-url http://127.0.0.1:8787'])).toEqual({
      named: new Set(['8787']),
      served: new Set(['8787']),
    });
  });
});

describe('prepareWorkspace', () => {
  it('copies the dataset files the docs name from the committed stand-ins each benchmark lists, whole or cut', () => {
    const { cwd, dataDir } = prepareWorkspace(REPO_ROOT);
    try {
      expect(dataDir).toBe(join(cwd, 'data'));
      const fixture = readFileSync(join(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'));
      for (const name of ['locomo10.json', 'locomo10-conv26.json'])
        expect(readFileSync(join(cwd, 'datasets', name)).equals(fixture)).toBe(true);
      // LongMemEval's: the sample cut to one question of each type and an abstention, still gzipped.
      type Question = { question_id: string; question_type: string };
      const read = (path: string) =>
        JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Question[];
      const sample = read(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'));
      for (const name of ['longmemeval_s_cleaned', 'longmemeval_oracle', 'longmemeval_m_cleaned']) {
        const cut = read(join(dataDir, `${name}.json.gz`));
        expect(cut.length).toBeLessThan(sample.length);
        expect(cut).toEqual(
          sample.filter((record) => cut.some((kept) => kept.question_id === record.question_id)),
        );
        expect(new Set(cut.map((record) => record.question_type))).toEqual(
          new Set(sample.map((record) => record.question_type)),
        );
        expect(cut.some((record) => record.question_id.endsWith('_abs'))).toBe(true);
      }
      for (const name of ['sample', 'fixtures'])
        expect(lstatSync(join(cwd, 'datasets', name)).isSymbolicLink()).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

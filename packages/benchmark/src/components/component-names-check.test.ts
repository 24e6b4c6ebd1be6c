import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts/check-component-names.mjs');

function check(root: string) {
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/**
 * A tree with a retriever `scratch-rank` and a retriever `bm25` (folders), an embedder family
 * `vec` and a reranker family `judge` (registry keys), a stage `trim` (folder), providers `pipeline` (folder) and
 * `scratch-memory` (an external one, folder), plus the given files under packages/benchmark/src.
 */
function tree(files: Record<string, string> = {}): string {
  root = mkdtempSync(join(tmpdir(), 'lme-component-names-'));
  const src = join(root, 'packages/benchmark/src');
  const base: Record<string, string> = {
    'components/retrievers/scratch-rank/descriptor.ts': 'export const scratchRank = {};\n',
    'components/retrievers/bm25/descriptor.ts': 'export const bm25 = {};\n',
    'components/retrievers/retriever-registry.ts':
      "import { bm25 } from './bm25/descriptor.js';\nimport { scratchRank } from './scratch-rank/descriptor.js';\nexport const RETRIEVERS = { bm25, 'scratch-rank': scratchRank } as const;\n",
    'components/embedders/vec/descriptor.ts': 'export const vec = {};\n',
    'components/embedders/embedder-registry.ts':
      "import { vec } from './vec/descriptor.js';\nexport const EMBEDDERS = { vec } as const;\n",
    'components/rerankers/reranker-registry.ts':
      "import { judge } from './judge/judge-descriptor.js';\nexport const RERANKERS = { judge } as const;\n",
    'components/rerankers/judge/judge-descriptor.ts': 'export const judge = {};\n',
    'components/stages/trim/descriptor.ts': 'export const trim = {};\n',
    'components/stages/stage-registry.ts':
      "import { trim } from './trim/descriptor.js';\nexport const STAGES = { trim } as const;\n",
    'providers/pipeline/pipeline-descriptor.ts': 'export const pipelineDescriptor = {};\n',
    'providers/context-providers.ts': 'export const oracleDescriptor = {};\n',
    'providers/provider-registry.ts':
      "import { pipelineDescriptor } from './pipeline/pipeline-descriptor.js';\nimport { oracleDescriptor } from './context-providers.js';\nexport const PROVIDERS = { pipeline: pipelineDescriptor, oracle: oracleDescriptor, ...{} };\n",
    'providers/scratch-memory/descriptor.ts': 'export const scratchMemory = {};\n',
    'providers/external-memory-registry.ts':
      "import { scratchMemory } from './scratch-memory/descriptor.js';\nexport const EXTERNAL_MEMORIES = { 'scratch-memory': scratchMemory };\n",
  };
  for (const [path, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  return root;
}

describe('the component-names check (pnpm lint)', () => {
  it('passes on the repository as it is, with no allowance file', () => {
    expect(check(REPO_ROOT)).toMatchObject({ status: 0, stderr: '' });
  });

  it('passes on a tree whose components name themselves only in their folders and registries', () => {
    const result = check(tree());
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toContain('2 retrievers, 1 embedders, 1 rerankers, 1 stages, 3 providers');
  });

  it('fails on a planted name outside the folder, naming file:line, the kind and the name', () => {
    const cases: [string, string][] = [
      [
        "export const x = 1;\nexport const on = (r: string) => r === 'scratch-rank';\n",
        'the retriever "scratch-rank"',
      ],
      ["export const known = ['scratch-rank'];\nexport const y = 2;\n", 'the retriever "scratch-rank"'],
      [
        "export const x = 1;\nexport const isVec = (e: string) => e.startsWith('vec:');\n",
        'the embedder "vec"',
      ],
      ['export const x = 1;\nexport const id = (m: string) => `judge:$' + '{m}`;\n', 'the reranker "judge"'],
      [
        "export const x = 1;\nexport const ext = { name: 'scratch-memory' };\n",
        'the provider "scratch-memory"',
      ],
      [
        "export const x = 1;\nexport const own = (c: { provider: string }) => c.provider === 'pipeline';\n",
        'the provider "pipeline"',
      ],
      [
        "export const x = 1;\nexport function f(kind: string) {\n  switch (kind) {\n    case 'oracle':\n      return 1;\n  }\n}\n",
        'the provider "oracle"',
      ],
      ["export const x = 1;\nexport const base = { retriever: 'bm25' };\n", 'the retriever "bm25"'],
      ["export const x = 1;\nexport const on = (stage: string) => stage === 'trim';\n", 'the stage "trim"'],
    ];
    const files = Object.fromEntries(cases.map(([text], index) => [`run/case-${index}.ts`, text]));
    const result = check(tree(files));
    expect(result.status).toBe(1);
    cases.forEach(([text, named], index) => {
      const line =
        text
          .split('\n')
          .findIndex((row) =>
            /'(scratch-rank|vec:|scratch-memory|pipeline|oracle|bm25|trim)'|`judge:/.test(row),
          ) + 1;
      expect(result.stderr).toContain(`packages/benchmark/src/run/case-${index}.ts:${line} names ${named}`);
    });
    expect(result.stderr.trim().split('\n')).toHaveLength(cases.length);
  });

  it('passes on the same literals inside the component folder, and the registry naming every one', () => {
    const result = check(
      tree({
        'components/retrievers/scratch-rank/options.ts':
          "export const on = (r: string) => r === 'scratch-rank';\n",
        'components/embedders/vec/parse.ts': "export const isVec = (e: string) => e.startsWith('vec:');\n",
        'components/rerankers/judge/id.ts': 'export const id = (m: string) => `judge:$' + '{m}`;\n',
        'providers/scratch-memory/identity.ts': "export const ext = { name: 'scratch-memory' };\n",
        'providers/context-providers.ts': "export const oracleDescriptor = { name: 'oracle' };\n",
      }),
    );
    expect(result).toMatchObject({ status: 0, stderr: '' });
  });

  it('a name in another folder of the same kind is still outside its own', () => {
    const result = check(
      tree({
        'components/retrievers/bm25/fallback.ts': "export const other = { retriever: 'scratch-rank' };\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'components/retrievers/bm25/fallback.ts:1 names the retriever "scratch-rank"',
    );
  });

  it('lets comments, tests, messages, import paths, URLs and the other vocabularies through', () => {
    const result = check(
      tree({
        'run/shared.ts': [
          '// scratch-rank, vec: and pipeline are named here only in a comment',
          "import { scratchRank } from '../components/retrievers/scratch-rank/descriptor.js';",
          "export const help = 'use --retriever scratch-rank for this';",
          "export const routes = ['bm25'] as const;",
          "export const route = (r: string) => r === 'bm25';",
          "export const role = (c: object) => [c, 'pipeline'];",
          "export const url = 'vec://host/path';",
          'export { scratchRank };',
        ].join('\n'),
        'run/shared.test.ts': "export const r = { retriever: 'scratch-rank', provider: 'pipeline' };\n",
      }),
    );
    expect(result).toMatchObject({ status: 0, stderr: '' });
  });

  it('fails when a registry it reads names from is missing, rather than checking no names', () => {
    const path = join(tree(), 'packages/benchmark/src/providers/external-memory-registry.ts');
    rmSync(path);
    const result = check(root!);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'packages/benchmark/src/providers/external-memory-registry.ts is missing: the provider names are read from it',
    );
  });

  it('covers a new component with no edit of the script: a folder alone makes its name checked', () => {
    const result = check(
      tree({
        'components/retrievers/brand-new/descriptor.ts': 'export const brandNew = {};\n',
        'config/defaults.ts': "export const fallback = 'brand-new';\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'packages/benchmark/src/config/defaults.ts:1 names the retriever "brand-new"',
    );
  });
});

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../testing/run-cli.js';

/**
 * `lme run --plugin <file>` from a folder outside the repository: examples/word-overlap-plugin.mjs
 * (a retriever, a stage and an external memory system) copied to a temp dir, run on the sample, its flags warned about and its
 * names offered as "did you mean", a changed plugin refused by --resume; broken plugins are refused
 * in one sentence naming the file.
 */

let dir: string;
let plugin: string;
const out = () => join(dir, 'out');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lme-plugin-'));
  plugin = join(dir, 'word-overlap-plugin.mjs');
  copyFileSync(join(REPO_ROOT, 'examples/word-overlap-plugin.mjs'), plugin);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => runCli(['run', '--plugin', plugin, '-d', 'sample', ...args]);
const configOf = (runId: string) => JSON.parse(readFileSync(join(out(), runId, 'config.json'), 'utf8'));
const recallOf = (runId: string): number =>
  JSON.parse(readFileSync(join(out(), runId, 'summary.json'), 'utf8')).metrics.overall.metrics[
    'session.recall_any@5'
  ];

describe('lme run --plugin', () => {
  it("runs the plugin's retriever and stage on the sample and records the plugin", () => {
    const plain = run('--retriever', 'word-overlap', '--limit', '6', '--out', out(), '--run-id', 'plain');
    expect(plain.stderr).not.toMatch(/error|no effect/i);
    expect(plain.status).toBe(0);
    expect(recallOf('plain')).toBeGreaterThan(0.5);
    const stored = configOf('plain');
    expect(stored.config).toMatchObject({ retriever: 'word-overlap', overlapMin: 1, plugins: [plugin] });

    const dropped = run(
      ...['--retriever', 'word-overlap', '--drop-first', '--drop-count', '5', '--explain', '--limit', '6'],
      ...['--out', out(), '--run-id', 'dropped'],
    );
    expect(dropped.status).toBe(0);
    const explained = JSON.parse(
      readFileSync(join(out(), 'dropped', 'explain.jsonl'), 'utf8').split('\n')[0]!,
    );
    expect(explained.stages).toEqual(['drop_first']);
    expect(explained.weights.drop_first).toEqual({ count: 5 });
    expect(recallOf('dropped')).toBeLessThan(recallOf('plain'));
    // The plugin's content is in the code hash: a changed plugin is changed code, which --resume refuses.
    expect(configOf('dropped').setup.code).toBe(stored.setup.code);
    // A resume reloads the plugins its run was made with: no --plugin needed, nothing to redo.
    const again = runCli([
      'run',
      '-d',
      'sample',
      '--retriever',
      'word-overlap',
      '--limit',
      '6',
      '--resume',
      join(out(), 'plain'),
    ]);
    expect(again.stderr).not.toMatch(/error/i);
    expect(again.status).toBe(0);
    const original = readFileSync(plugin, 'utf8');
    writeFileSync(plugin, `${original}// changed\n`);
    const resumed = run('--retriever', 'word-overlap', '--limit', '6', '--resume', join(out(), 'plain'));
    writeFileSync(plugin, original);
    expect(resumed.status).toBe(1);
    expect(resumed.stderr).toMatch(
      /Cannot resume .*plain: its questions were made under another setup \(code /,
    );
  }, 480_000);

  it('loads the plugin for every command that takes run options, not only lme run', () => {
    const ablated = runCli([
      'ablate',
      '--plugin',
      plugin,
      '-d',
      'sample',
      '--limit',
      '4',
      '--grid',
      'retriever=bm25,word-overlap',
      '--out',
      out(),
      '--ablation-id',
      'ablated',
    ]);
    expect(ablated.stderr).not.toMatch(/error/i);
    expect(ablated.status).toBe(0);
    expect(readFileSync(join(out(), 'ablated', 'retriever-word-overlap', 'config.json'), 'utf8')).toContain(
      '"retriever": "word-overlap"',
    );
  }, 240_000);

  it("runs the plugin's external memory system on the sample, where lme's stage flags do nothing", () => {
    const memory = run(
      ...['--provider', 'overlap-memory', '--provider-option', 'min-shared=1', '--dedup', '--drop-first'],
      ...['--limit', '6', '--out', out(), '--run-id', 'memory'],
    );
    expect(memory.status).toBe(0);
    // Its option, a record like lme's own providers' options, read from the text by its schema.
    expect(configOf('memory').provider_options).toEqual({ 'min-shared': 1 });
    expect(memory.stderr).toContain('--dedup has no effect without --provider pipeline.');
    expect(memory.stderr).toContain('--drop-first has no effect without --provider pipeline.');
    expect(recallOf('memory')).toBeGreaterThan(0.5);
    expect(configOf('memory').config).toMatchObject({ provider: 'overlap-memory', plugins: [plugin] });
    const typo = run('--provider', 'overlap-memroy', '--dry-run');
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain('did you mean "overlap-memory"?');
    const option = run('--provider', 'overlap-memory', '--provider-option', 'min-share=2', '--dry-run');
    expect(option.status).toBe(1);
    expect(option.stderr).toContain(
      '--provider-option min-share=2: --provider overlap-memory has no option "min-share" (did you mean "min-shared"?); its options: min-shared.',
    );
  }, 480_000);

  it('offers plugin names in "did you mean" and warns about plugin options like any other', () => {
    const typo = run('--retriever', 'word-overlp', '--dry-run');
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain('Did you mean "word-overlap"?');
    const elsewhere = run('--retriever', 'bm25', '--overlap-min', '2', '--drop-count', '2', '--dry-run');
    expect(elsewhere.stderr).toContain('--overlap-min has no effect without --retriever word-overlap.');
    expect(elsewhere.stderr).toContain('--drop-count has no effect without --drop-first.');
    // A run config file's `plugins`, relative to the file.
    writeFileSync(join(dir, 'run.yaml'), 'plugins: [./word-overlap-plugin.mjs]\nretriever: word-overlap\n');
    const configured = runCli(['run', '--config', join(dir, 'run.yaml'), '-d', 'sample', '--dry-run']);
    expect(configured.stderr).not.toMatch(/error/i);
    expect(configured.status).toBe(0);
  }, 240_000);

  it('refuses a plugin that throws, gives nothing, reuses a name, takes an option of lme or breaks its kind’s contract, naming the file', () => {
    const cases: [string, string, RegExp][] = [
      ['throws.mjs', "throw new Error('boom');\n", /^lme: Plugin .*throws\.mjs failed to load: boom\n$/],
      ['empty.mjs', 'export default {};\n', /^lme: Plugin .*empty\.mjs exports nothing lme can use/],
      [
        'clash.mjs',
        "export default { retrievers: [{ name: 'bm25', description: '', options: {}, capabilities: {}, create() {} }] };\n",
        /^lme: Plugin .*clash\.mjs: retriever "bm25" is already registered; give it another name\.\n$/,
      ],
      [
        'memory-clash.mjs',
        "export default { memories: [{ name: 'http', description: '', options: {}, capabilities: {}, createMemory() {} }] };\n",
        /^lme: Plugin .*memory-clash\.mjs: provider "http" is already registered; give it another name\.\n$/,
      ],
      [
        'core.mjs',
        "export default ({ z }) => ({ retrievers: [{ name: 'mine', description: '', options: { finalTopK: { schema: z.number(), flags: '--x <n>', group: 'retrieval', help: 'x' } }, capabilities: {}, create() {} }] });\n",
        /^lme: Plugin .*core\.mjs: option "finalTopK" of "mine" is already an option of lme; rename it\.\n$/,
      ],
      [
        'owned.mjs',
        "export default ({ z }) => ({ stages: [{ name: 'mine', description: '', options: { on: { schema: z.boolean(), flags: '--on', group: 'stages', help: 'x' }, rerankDepth: { schema: z.number(), flags: '--y <n>', group: 'stages', help: 'y' } }, capabilities: {}, switch: 'on', create() {}, provenance() {} }] });\n",
        /^lme: Plugin .*owned\.mjs: option "rerankDepth" of stage "mine" is already an option of lme; rename it\.\n$/,
      ],
      [
        'no-create.mjs',
        "export default { embedders: [{ name: 'mine', description: '', options: {}, capabilities: { form: 'mine:x' } }] };\n",
        /^lme: Plugin .*no-create\.mjs: embedder family "mine" needs a create function\.\n$/,
      ],
      [
        'colon.mjs',
        "export default { rerankers: [{ name: 'a:b', description: '', options: {}, capabilities: { form: 'a:b' }, create() {}, pricedModel() {} }] };\n",
        /^lme: Plugin .*colon\.mjs: reranker family "a:b" has ":" or "\+" in its name, which ids split at\.\n$/,
      ],
      [
        'dims.mjs',
        "export default ({ z }) => ({ rerankers: [{ name: 'mine', description: '', options: { rerankDepth: { schema: z.number(), flags: '--d <n>', group: 'stages', help: 'd' } }, capabilities: { form: 'mine:x' }, create() {}, pricedModel() {} }] });\n",
        /^lme: Plugin .*dims\.mjs: option "rerankDepth" of reranker family "mine" is already an option of lme; rename it\.\n$/,
      ],
      [
        'section.mjs',
        "export default ({ z }) => ({ embedders: [{ name: 'mine', description: '', options: { embedder: { schema: z.string(), flags: '--e <e>', group: 'retrieval', help: 'e' } }, capabilities: { form: 'mine:x' }, create() {} }] });\n",
        /^lme: Plugin .*section\.mjs: option "embedder" of "mine" is already an option of lme; rename it\.\n$/,
      ],
      [
        'dataset-name.mjs',
        "export default { benchmarks: [{ name: 'mine', description: '', formatHint: '', recognizes: () => false, load() {}, questionTypes: ['mine'], conventions: {}, defaults: {}, datasets: { names: ['sample'], resolve: () => '' } }] };\n",
        /^lme: Plugin .*dataset-name\.mjs: benchmark "mine": "sample" is another benchmark's name\.\n$/,
      ],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(join(dir, name), text);
      const result = runCli(['run', '--plugin', join(dir, name), '-d', 'sample', '--dry-run']);
      expect(result.status, name).toBe(1);
      expect(result.stderr, name).toMatch(message);
    }
  }, 480_000);
});

import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchmarkNamed } from '../benchmarks/benchmark-registry.js';
import { RUN_OPTION_GROUPS, RUN_OPTIONS, type RunOptionDeclaration } from '../config/run-options.js';
import { parseRunConfig } from '../config/run-sections.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { parseRun } from './parse-run-flags.js';
import { runCommand } from './run-command.js';
import { resolveRunInput, resolveRunInputForDataset } from './run-option-flags.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('run config precedence: defaults < config file < preset < environment < flags', () => {
  it('takes each key from the highest layer that sets it', () => {
    vi.stubEnv('LME_DATA_DIR', 'from-environment');
    const fromFile = {
      retriever: 'dense',
      tokenizer: 'official',
      topK: 7,
      concurrency: 3,
      dataDir: 'from-file',
    } as const;
    const { input, layers } = resolveRunInput(parseRun(['--preset', 'bm25', '-j', '2']), {}, fromFile);
    const config = parseRunConfig(input);
    expect(config.retriever).toBe('bm25'); // the preset over the file
    expect(config.tokenizer).toBe('words'); // the preset over the file
    expect(config.topK).toBe(7); // the file over the default
    expect(config.dataDir).toBe('from-environment'); // the environment over the file
    expect(config.concurrency).toBe(2); // a flag over the file
    expect(config.seed).toBe(42); // the default
    expect(layers).toMatchObject({
      '--config': ['retriever', 'tokenizer', 'topK', 'concurrency', 'dataDir'],
      'preset bm25': ['retriever', 'tokenizer', 'granularity', 'contextBudget'],
      environment: ['dataDir'],
      flags: ['preset', 'concurrency'],
    });
  });

  it('loads the preset a config file names, and a --preset flag replaces it', () => {
    const fromFile = { preset: 'bm25-official', retriever: 'dense', granularity: 'turn' } as const;
    const named = parseRunConfig(resolveRunInput(parseRun([]), {}, fromFile).input);
    expect([named.retriever, named.tokenizer, named.granularity]).toEqual(['bm25', 'official', 'session']);
    const replaced = parseRunConfig(resolveRunInput(parseRun(['--preset', 'bm25']), {}, fromFile).input);
    expect([replaced.preset, replaced.tokenizer]).toEqual(['bm25', 'words']);
  });

  it('puts a config file above the stored config of a resumed run', () => {
    const { sections } = resolveRunInput(
      parseRun([]),
      { concurrency: 4, label: 'stored' },
      { label: 'file' },
    );
    expect([sections.run.concurrency, sections.run.label]).toEqual([4, 'file']);
  });
});

describe("the dataset's benchmark layer", () => {
  it('is found from the dataset the merged layers name, below every layer, and the input resolved once with it', async () => {
    const locomo = benchmarkNamed('locomo')!;
    const fromFile = { dataset: resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json') };
    const { input, sections, layers, benchmark } = await resolveRunInputForDataset(
      parseRun(['--judge', 'longmemeval']),
      {},
      fromFile,
    );
    expect(benchmark?.name).toBe('locomo');
    expect(layers['benchmark locomo']).toEqual(['convention', 'readerPrompt']);
    expect([sections.data.convention, sections.qa.readerPrompt]).toEqual([
      locomo.defaults.convention,
      locomo.defaults.readerPrompt,
    ]);
    expect(sections.qa.judge).toBe('longmemeval'); // a flag over the benchmark's
    expect(input.benchmarkDefaults).toEqual({ benchmark: 'locomo', keys: ['convention', 'readerPrompt'] });
  });
});

describe('lme run --help', () => {
  it('gives every run option a help group, so a new option cannot land in an unnamed list', () => {
    const missing = (RUN_OPTIONS as readonly RunOptionDeclaration[]).filter(
      (option) => !Object.hasOwn(RUN_OPTION_GROUPS, option.group),
    );
    expect(missing.map((option) => option.flags)).toEqual([]);
    const help = runCommand().helpInformation();
    const headings = [...help.matchAll(/^([A-Z][^\n]*):$/gm)].map((match) => `${match[1]}:`);
    expect(headings).toEqual([...Object.values(RUN_OPTION_GROUPS), 'Options:']);
    // Only --help is left in the ungrouped list.
    expect(help.split('\nOptions:\n')[1]!.split('\n\n')[0]!.trim()).toMatch(
      /^-h, --help +display help for command$/,
    );
  });

  it('lists --dataset, --preset and --limit first, and says --preset takes a name or a path', () => {
    const help = runCommand().helpInformation();
    const start = help.split('Start here:\n')[1]!.split('\n\n')[0]!;
    expect([...start.matchAll(/^ {2}((?:-\w, )?--[\w-]+)/gm)].map((match) => match[1])).toEqual([
      '-d, --dataset',
      '--preset',
      '--limit',
      '--config',
    ]);
    expect(start).toMatch(/--preset <name\|path> +start from a preset: a name/);
  });
});

import { describe, expect, it } from 'vitest';
import { RETRIEVERS } from '../components/retrievers/retriever-registry.js';
import { ConfigError, fromRegistry } from '../config/config-error.js';
import { ineffectiveKeyWarnings } from '../config/ineffective-keys.js';
import { runConfigSchema } from '../config/run-config.js';
import { configFromEnvironment, RUN_OPTIONS } from '../config/run-options.js';
import { groupConfig, parseRunConfig } from '../config/run-sections.js';
import { parseRun } from './parse-run-flags.js';
import {
  cacheDirOption,
  dataDirOption,
  FLAG_KEYS,
  folderSetting,
  resolveRunInput,
} from './run-option-flags.js';
import { serveCommand } from './serve-command.js';

/**
 * Keys only one command sets, with its own flag (not shared run options), and keys lme sets itself
 * for provenance (`benchmarkDefaults`: which keys the dataset's benchmark decided), with no flag.
 */
const COMMAND_ONLY_KEYS = new Set<string>(['benchmarkDefaults']);

describe('run option declarations', () => {
  it('declare every run config key once, and only keys the schema has', () => {
    const declared = RUN_OPTIONS.map((option) => option.key as string);
    expect(new Set(declared).size).toBe(declared.length);
    const schemaKeys = Object.keys(runConfigSchema.shape).filter((key) => !COMMAND_ONLY_KEYS.has(key));
    expect([...declared].sort()).toEqual(schemaKeys.sort());
  });

  it('generate the help default from the schema default', () => {
    const help = parseRun([]).helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(/sessions kept by stage 1 \(default: 5\)/);
    expect(help).toMatch(/weights of the weighted fusion \(default: 0\.3,0\.7\)/);
    expect(help).toMatch(/LME_CACHE_DIR; default: \.lme-cache/);
  });

  it("state no preset's value: the presets keep their own (--dense-gap once said 0.35 when they held 0.1 and 0)", () => {
    const help = parseRun([]).helpInformation().replace(/\s+/g, ' ');
    expect(help).not.toMatch(/presets?\b[^()]*: \d/);
  });

  it('take choices and bounds from the schema', () => {
    expect(parseRun(['--top-sessions', '1000']).opts().topSessions).toBe(1000);
    expect(() => parseRun(['--top-sessions', '1001'])).toThrow(
      /expected a whole number from 1 to 1000, got "1001"/,
    );
    expect(() => parseRun(['--concurrency', '257'])).toThrow(/from 1 to 256/);
    expect(() => parseRun(['--max-cost', '0'])).toThrow(/expected a number above 0, got "0"/);
    // Numbers in decimal only, as a --provider-option reads them (Number() takes 0x1 and 1e3 alike).
    expect(() => parseRun(['--feedback-weight', '0x1'])).toThrow(
      /expected a number of at least 0, got "0x1"/,
    );
    expect(parseRun(['--feedback-weight', '.5']).opts().feedbackWeight).toBe(0.5);
    expect(() => parseRun(['--vector-store', 'faiss'])).toThrow(/Allowed choices are memory, qdrant/);
    // A choice a registry gives (the retrievers') is answered with the close one.
    expect(() => parseRun(['--retriever', 'sesion-aware'])).toThrow(
      /Allowed choices are .*session-aware.*\. Did you mean "session-aware"\?/,
    );
  });

  it('map each flag to its config key, including renamed and negated flags', () => {
    expect(FLAG_KEYS.providerTimeout).toBe('providerTimeoutMs');
    expect(FLAG_KEYS.cache).toBe('cache');
    const { input } = resolveRunInput(parseRun(['--no-cache', '--timeout', '5', '--no-contextual-dense']));
    expect(parseRunConfig(input)).toMatchObject({ cache: false, timeoutMs: 5, contextualDense: false });
  });
});

describe('run config bounds', () => {
  it('hold a preset (or any config file) to the same caps as the flags', () => {
    for (const [key, value] of [
      ['concurrency', 257],
      ['topSessions', 1001],
      ['turnsPerSession', 1001],
      ['feedbackDocs', 1001],
      ['finalTopK', 10_001],
    ] as const) {
      let error: unknown;
      try {
        parseRunConfig({ [key]: value });
      } catch (caught) {
        error = caught;
      }
      expect(error, key).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).keys).toEqual([key]);
      expect((error as ConfigError).code).toBe('config_invalid');
      expect((error as ConfigError).isRetryable).toBe(false);
    }
  });

  it('name the flag of a bad key in the message', () => {
    expect(() => parseRunConfig({ topSessions: 0 })).toThrow(/topSessions: .*\(--top-sessions\)/);
  });
});

describe('warnings for flags with no effect', () => {
  it('name the flag and what it needs', () => {
    expect(resolveRunInput(parseRun(['--top-sessions', '3'])).warnings).toEqual([
      '--top-sessions has no effect without --retriever session-aware.',
    ]);
    expect(resolveRunInput(parseRun(['--mmr-lambda', '0.5'])).warnings).toEqual([
      '--mmr-lambda has no effect without --mmr.',
    ]);
  });

  it('stay quiet when the key is used, and for keys set by a preset', () => {
    expect(resolveRunInput(parseRun(['--session-aware', '--top-sessions', '3'])).warnings).toEqual([]);
    expect(resolveRunInput(parseRun(['--mmr', '--mmr-lambda', '0.5'])).warnings).toEqual([]);
    expect(resolveRunInput(parseRun(['--preset', 'session-aware'])).warnings).toEqual([]);
  });

  it('cover the reranker and multi-source flags', () => {
    expect(
      resolveRunInput(
        parseRun(['--rerank-depth', '30', '--rerank-model', 'm', '--source-weights', 'memory=1']),
      ).warnings,
    ).toEqual([
      // In the order of RUN_OPTIONS: the retrieval section's flags, then the rerankers' own.
      '--source-weights has no effect without --retriever multi-source.',
      '--rerank-depth has no effect without --reranker.',
      '--rerank-model has no effect without --reranker http:<url>.',
    ]);
    expect(
      resolveRunInput(
        parseRun(['--reranker', 'offline:interleave', '--rerank-depth', '30', '--rerank-key-env', 'K']),
      ).warnings,
    ).toEqual(['--rerank-key-env has no effect without --reranker http:<url>.']);
    expect(
      resolveRunInput(
        parseRun(['--reranker', 'http:http://127.0.0.1:9', '--rerank-model', 'm', '--rerank-key-env', 'K']),
      ).warnings,
    ).toEqual([]);
  });

  it('name the flag of a reranker URL that does not parse, instead of throwing', () => {
    expect(() => resolveRunInput(parseRun(['--reranker', 'http://127.0.0.1:9']))).toThrow(/--reranker/);
  });

  it('cover --model-dir, which only hf: embedders read', () => {
    expect(
      resolveRunInput(
        parseRun(['--retriever', 'hybrid', '--embedder', 'local:use-lite', '--model-dir', '/models']),
      ).warnings,
    ).toEqual([
      '--model-dir has no effect without --embedder hf:<owner>/<model>[@<dtype>] in a pipeline that embeds.',
    ]);
    // The default embedder is an hf: model (the hybrid preset's), so --model-dir alone counts.
    expect(resolveRunInput(parseRun(['--retriever', 'hybrid', '--model-dir', '/models'])).warnings).toEqual(
      [],
    );
    expect(
      resolveRunInput(
        parseRun(['--retriever', 'hybrid', '--embedder', 'hf:Xenova/e5-small-v2', '--model-dir', '/models']),
      ).warnings,
    ).toEqual([]);
  });

  it('cover the reader, the http provider and the cache', () => {
    const config = parseRunConfig({ cache: false });
    expect(ineffectiveKeyWarnings(groupConfig(config), ['judgeSamples', 'providerUrl', 'cacheDir'])).toEqual([
      '--judge-samples has no effect without --reader-model or --answers provider.',
      '--provider-url has no effect without --provider http.',
      '--cache-dir has no effect without the cache (drop --no-cache).',
    ]);
  });
});

describe('settings from the environment', () => {
  it('are read for the declared variables only', () => {
    expect(
      configFromEnvironment({ LME_DATA_DIR: '/data', LME_CACHE_DIR: '/cache', OPENAI_API_KEY: 'sk-x' }),
    ).toEqual({ dataDir: '/data', cacheDir: '/cache' });
  });

  it('give commands outside a run the same folder: flag, else environment, else default', () => {
    expect(folderSetting('cacheDir', '/flag', { LME_CACHE_DIR: '/env' })).toBe('/flag');
    expect(folderSetting('cacheDir', undefined, { LME_CACHE_DIR: '/env' })).toBe('/env');
    expect(folderSetting('dataDir', undefined, {})).toBe('datasets');
    expect(dataDirOption().flags).toBe('--data-dir <dir>');
    expect(cacheDirOption().description).toMatch(/env LME_CACHE_DIR/);
  });
});

describe('lme serve', () => {
  it('reuses the run declarations and defaults', () => {
    const serve = serveCommand();
    const retriever = serve.options.find((option) => option.long === '--retriever');
    expect(retriever?.argChoices).toEqual(Object.keys(RETRIEVERS));
    const roles = serve.options.find((option) => option.long === '--index-roles');
    expect(roles?.argChoices).toEqual(['user', 'all']);
    expect(roles?.description).toMatch(/default: user/);
  });
});

describe('registries', () => {
  it('fail with the known names', () => {
    const registry = { memory: 1, qdrant: 2 } as const;
    expect(fromRegistry(registry, 'qdrant', { key: 'vectorStore', label: 'vector store' })).toBe(2);
    expect(() => fromRegistry(registry, 'faiss', { key: 'vectorStore', label: 'vector store' })).toThrow(
      'Unknown vector store "faiss"; known: memory, qdrant.',
    );
  });
});

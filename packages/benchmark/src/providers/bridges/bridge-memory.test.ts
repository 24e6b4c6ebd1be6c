import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEM0_EMBEDDERS, mem0Descriptor } from '../mem0/descriptor.js';
import { mempalaceDescriptor } from '../mempalace/descriptor.js';
import { parseProviderOptions } from '../provider-registry.js';

describe('a bridge that is not installed', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lme-bridges-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const dependencies = () => ({
    environment: { LME_BRIDGES_DIR: root },
    timeoutMs: 1000,
    maxRetries: 0,
    workDir: join(root, 'work'),
  });

  it('fails its preflight with one sentence naming the install command', async () => {
    const memory = mem0Descriptor.createMemory(parseProviderOptions(mem0Descriptor, {}), dependencies());
    await expect(memory.preflight()).rejects.toThrow(
      `The mem0 bridge is not installed in ${join(root, 'mem0')}: run \`lme bridges install mem0\` first (LME_BRIDGES_DIR moves it).`,
    );
    await memory.close?.();
  });

  it('asks for a new install when the pinned packages changed since', async () => {
    await mkdir(join(root, 'mempalace'), { recursive: true });
    const manifest = {
      bridge: 'mempalace',
      library: 'mempalace 3.10.0',
      requirementsSha256: 'old',
      models: {},
    };
    await writeFile(join(root, 'mempalace', 'installed.json'), JSON.stringify(manifest));
    const memory = mempalaceDescriptor.createMemory(
      parseProviderOptions(mempalaceDescriptor, {}),
      dependencies(),
    );
    await expect(
      memory.search({ namespace: 'n', query: 'q', topK: 1, granularity: 'session' }),
    ).rejects.toThrow(
      /installed from other pinned packages than this lme's: run `lme bridges install mempalace` first/,
    );
  });
});

describe('the mem0 options', () => {
  it('take --provider-option strings, with mem0 defaults, and refuse an unknown embedder', () => {
    expect(parseProviderOptions(mem0Descriptor, {})).toEqual({
      embedder: 'all-minilm-l6-v2',
      threshold: 0.1,
    });
    expect(parseProviderOptions(mem0Descriptor, { embedder: 'bge-small-en-v1.5', threshold: '0' })).toEqual({
      embedder: 'bge-small-en-v1.5',
      threshold: 0,
    });
    expect(() => parseProviderOptions(mem0Descriptor, { embedder: 'openai' })).toThrow(
      `--provider-option embedder=openai: --provider mem0's option "embedder": takes one of ${Object.keys(MEM0_EMBEDDERS).join(', ')}.`,
    );
    expect(() => parseProviderOptions(mem0Descriptor, { embedder: 'bge-small-en-v1.6' })).toThrow(
      '(did you mean "bge-small-en-v1.5"?)',
    );
    expect(() => parseProviderOptions(mem0Descriptor, { threshold: '2' })).toThrow(
      `--provider-option threshold=2: --provider mem0's option "threshold": takes a number from 0 to 1.`,
    );
  });
});

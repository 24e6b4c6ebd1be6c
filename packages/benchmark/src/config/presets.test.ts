import { describe, expect, it } from 'vitest';
import { listPresets, loadPreset } from './presets.js';
import { DEFAULT_EMBEDDER, runConfigSchema } from './run-config.js';

describe('the default embedder', () => {
  it('is the embedder of every preset that names an ONNX model (issue 37: not USE-lite)', () => {
    const named = listPresets()
      .map((name) => loadPreset(name).config.embedder)
      .filter((embedder): embedder is string => typeof embedder === 'string' && embedder.startsWith('hf:'));
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([DEFAULT_EMBEDDER]));
  });

  it('is what a config without a preset resolves to', () => {
    expect(runConfigSchema.parse({}).embedder).toBe(DEFAULT_EMBEDDER);
    expect(DEFAULT_EMBEDDER).not.toBe('local:use-lite');
  });
});

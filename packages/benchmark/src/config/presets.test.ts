import { describe, expect, it } from 'vitest';
import { loadPreset } from './presets.js';
import { DEFAULT_EMBEDDER, runConfigSchema } from './run-config.js';

describe('the default embedder', () => {
  it("is the hybrid preset's (issue 37: not USE-lite), so --retriever hybrid without a preset embeds as --preset hybrid", () => {
    expect(loadPreset('hybrid').config.embedder).toBe(DEFAULT_EMBEDDER);
  });

  it('is what a config without a preset resolves to', () => {
    expect(runConfigSchema.parse({}).embedder).toBe(DEFAULT_EMBEDDER);
    expect(DEFAULT_EMBEDDER).not.toBe('local:use-lite');
  });
});

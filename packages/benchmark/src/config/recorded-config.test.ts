import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';
import { COMPONENT_KINDS, type ComponentKind } from './component-kinds.js';
import { loadPreset } from './presets.js';
import { IN_PROCESS_CAPABILITIES } from './provider-capabilities.js';
import { recordedConfig, recordedKeyDifferences, unrecordedDefaults } from './recorded-config.js';
import type { RunConfig } from './run-config.js';
import { groupConfig, parseRunConfig } from './run-sections.js';

/** Every option key of a kind's components the config does not select, by component. */
function unselectedOptions(config: RunConfig): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const sections = groupConfig(config);
  for (const kind of Object.values(COMPONENT_KINDS) as ComponentKind[]) {
    const selected = new Set(kind.inUse(sections, IN_PROCESS_CAPABILITIES) ? kind.selected(sections) : []);
    for (const [name, descriptor] of Object.entries(kind.registry))
      if (!selected.has(name)) found.set(name, Object.keys(descriptor.options));
  }
  return found;
}

describe('the config a results folder records', () => {
  it('names no option of a component a --preset bm25 run did not select, nor the embedder it does not use', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-recorded-'));
    const bm25 = ['run', '-d', 'sample', '--preset', 'bm25', '--limit', '2'];
    const run = runCli([...bm25, '--out', out, '--run-id', 'bm25']);
    expect(run.status, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'bm25', 'config.json'), 'utf8')) as {
      config: RunConfig;
      setup: { settings: Record<string, unknown> };
    };
    const recorded = [...Object.keys(manifest.config), ...Object.keys(manifest.setup.settings)];
    const full = parseRunConfig(loadPreset('bm25').config);
    const unselected = unselectedOptions(full);
    expect(unselected.size).toBeGreaterThan(5);
    for (const [name, keys] of unselected)
      for (const key of keys) expect(recorded, `${name}: ${key}`).not.toContain(key);
    expect(recorded).not.toContain('embedder');
    expect(manifest.config.retriever).toBe('bm25');
    // A resume of the same command finds nothing changed and reads the folder's config whole.
    const resumed = runCli([...bm25, '--resume', join(out, 'bm25')]);
    expect(resumed.status, resumed.stderr).toBe(0);
  }, 120_000);

  it('compares a folder that records every key (an earlier release) and one that records its own by what matters', () => {
    const current = parseRunConfig({ retriever: 'bm25' });
    const everyKey = { ...current, topSessions: 9 } as RunConfig;
    // The earlier release recorded an unselected retriever's option: it changed nothing, nor differs.
    expect(recordedKeyDifferences(everyKey, current, IN_PROCESS_CAPABILITIES)).toEqual([]);
    const recorded = recordedConfig(current, IN_PROCESS_CAPABILITIES);
    expect(recorded).not.toHaveProperty('topSessions');
    expect(recordedKeyDifferences(recorded, current, IN_PROCESS_CAPABILITIES)).toEqual([]);
    expect(unrecordedDefaults(recorded)).toEqual(current);
    // A stage the stored run selected and this one does not (its switch left out here) differs.
    const deduped = recordedConfig(
      parseRunConfig({ retriever: 'bm25', dedup: true }),
      IN_PROCESS_CAPABILITIES,
    );
    expect(recordedKeyDifferences(deduped, current, IN_PROCESS_CAPABILITIES)).toEqual(['dedup']);
    // A selected retriever's option that differs is a difference.
    const aware = parseRunConfig({ retriever: 'session-aware' });
    const stored = recordedConfig(
      parseRunConfig({ retriever: 'session-aware', topSessions: 3 }),
      IN_PROCESS_CAPABILITIES,
    );
    expect(recordedKeyDifferences(stored, aware, IN_PROCESS_CAPABILITIES)).toEqual(['topSessions']);
  });
});

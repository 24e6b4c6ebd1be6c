import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPreset } from './presets.js';
import { readRunConfigFile } from './run-config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'lme-config-file-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a run config file', () => {
  it('reads YAML and JSON, flat or under "config" as a preset holds it', () => {
    const yaml = file('run.yaml', 'dataset: s\nsessionAware: true\ntopSessions: 3\nweights: [0.4, 0.6]\n');
    expect(readRunConfigFile(yaml)).toEqual({
      dataset: 's',
      sessionAware: true,
      topSessions: 3,
      weights: [0.4, 0.6],
    });
    const yml = file('run.yml', 'config:\n  retriever: bm25\ndescription: mine\n');
    expect(readRunConfigFile(yml)).toEqual({ retriever: 'bm25' });
    const json = file('run.json', JSON.stringify({ description: 'x', figure: 'y', config: { limit: 0.1 } }));
    expect(readRunConfigFile(json)).toEqual({ limit: 0.1 });
  });

  it("replays a run's config.json (config and provenance) in a new folder: its runId is dropped", () => {
    const manifest = file(
      'config.json',
      JSON.stringify({
        run_id: 'old-run',
        config: { dataset: 'sample', retriever: 'bm25', runId: 'old-run', limit: 5 },
        argv: ['run'],
        git: { commit: 'abc', dirty: false },
        started_at: '2026-11-24T00:00:00Z',
      }),
    );
    expect(readRunConfigFile(manifest)).toEqual({ dataset: 'sample', retriever: 'bm25', limit: 5 });
  });

  it('refuses an unknown key in one sentence naming the file, the key and the closest name', () => {
    const flat = file('typo.yaml', 'dataset: s\ntopSession: 3\n');
    expect(() => readRunConfigFile(flat)).toThrow(
      `${flat}: unknown key "topSession" (close names: topSessions`,
    );
    const flagSpelling = file('flag.yaml', 'top-sessions: 3\n');
    expect(() => readRunConfigFile(flagSpelling)).toThrow(
      /unknown key "top-sessions" \(close names: topSessions/,
    );
    const nested = file('nested.json', JSON.stringify({ config: { retreiver: 'bm25' } }));
    expect(() => readRunConfigFile(nested)).toThrow(
      `${nested}: config: unknown key "retreiver" (close names: retriever`,
    );
    const top = file('top.json', JSON.stringify({ config: {}, extra: 1 }));
    expect(() => readRunConfigFile(top)).toThrow(`${top}: unknown top-level key "extra"`);
  });

  it('names the file and the reason when it does not parse or cannot be read', () => {
    const bad = file('bad.yaml', 'dataset: [s\n');
    expect(() => readRunConfigFile(bad)).toThrow(new RegExp(`^${bad} is not valid YAML \\(`));
    expect(() => readRunConfigFile(file('list.json', '[1]'))).toThrow(/holds an object of run config keys/);
    expect(() => readRunConfigFile(join(dir, 'absent.yaml'))).toThrow(
      /--config .*absent\.yaml cannot be read \(ENOENT\)/,
    );
  });

  it('is what --preset reads from a path, and a named preset refuses unknown keys too', () => {
    const yaml = file('preset.yaml', 'config:\n  retriever: hybrid\n');
    expect(loadPreset(yaml).config).toEqual({ retriever: 'hybrid' });
    const presets = mkdtempSync(join(tmpdir(), 'lme-presets-'));
    writeFileSync(
      join(presets, 'mine.json'),
      JSON.stringify({ description: 'd', config: { tokeniser: 'words' } }),
    );
    expect(() => loadPreset('mine', presets)).toThrow(
      /config: unknown key "tokeniser" \(close names: tokenizer/,
    );
    expect(() => loadPreset('hybird')).toThrow(/Unknown preset "hybird"; known: .* \(closest: hybrid\)/);
  });
});

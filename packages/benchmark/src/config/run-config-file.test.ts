import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPreset } from './presets.js';
import { READ_LIMITS } from './read-guarded-file.js';
import { CONFIG_MAX_DEPTH, readRunConfigFile } from './run-config-file.js';

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

  // Issue 36, item 1: a 50 MB label cost 1.8 GB and 100k keys 63 s before the file was refused.
  it('refuses a file over 1 MB before parsing it, naming the flag, the file and the cap', () => {
    const big = file('big.yaml', `label: ${'x'.repeat(READ_LIMITS.small)}\n`);
    expect(() => readRunConfigFile(big)).toThrow(`--config ${big} holds more than 1 MB`);
    expect(() => loadPreset(big)).toThrow(`--preset ${big} holds more than 1 MB`);
  });

  it('checks YAML keys written twice itself (the library check is quadratic), and still refuses them', () => {
    const twice = file('twice.yaml', 'dataset: s\nlabel: a\nlabel: b\n');
    expect(() => readRunConfigFile(twice)).toThrow(
      `${twice} is not valid YAML (the key "label" is written twice).`,
    );
    const nested = file('nested-twice.yaml', 'config:\n  topK: 1\n  topK: 2\n');
    expect(() => readRunConfigFile(nested)).toThrow(/the key "topK" is written twice/);
  });

  // Issue 36, item 2: `--config /dev/zero` grew to 15 GB; a pipe blocked or was read without end.
  it('refuses what is not a regular file (a device, a pipe) without reading it', () => {
    const fifo = join(dir, 'pipe.yaml');
    spawnSync('mkfifo', [fifo]);
    // A writer that would hand the reader a valid config: read, the pipe would be accepted.
    const writer = spawn('sh', ['-c', `printf 'dataset: s\\n' > ${fifo}`]);
    try {
      expect(() => readRunConfigFile(fifo)).toThrow(`--config ${fifo} is not a regular file`);
      expect(() => loadPreset(fifo)).toThrow(`--preset ${fifo} is not a regular file`);
    } finally {
      writer.kill();
    }
    expect(() => readRunConfigFile('/dev/zero')).toThrow(
      '--config /dev/zero is not a regular file (a device, a pipe or a socket); lme reads this from a regular file.',
    );
  });

  // Issue 36, item 3: a non-UTF-8 byte reached config.json and summary.csv as U+FFFD.
  it('refuses a byte that is not UTF-8, naming the file and its offset', () => {
    for (const name of ['latin1.yaml', 'latin1.json']) {
      const path = join(dir, name);
      const text = name.endsWith('.json') ? '{"label": "caf\u00e9"}' : 'label: caf\u00e9\n';
      writeFileSync(path, Buffer.from(text, 'latin1'));
      const offset = Buffer.from(text, 'latin1').indexOf(0xe9);
      expect(() => readRunConfigFile(path)).toThrow(`${path}: byte ${offset} (0xe9) is not UTF-8`);
      expect(() => loadPreset(path)).toThrow(`${path}: byte ${offset} (0xe9) is not UTF-8`);
    }
  });

  it('refuses a YAML tag it does not know instead of warning and running on', () => {
    const tagged = file('tagged.yaml', 'label: !!js/function "function () {}"\n');
    expect(() => readRunConfigFile(tagged)).toThrow(
      `${tagged} is not valid YAML (Unresolved tag: tag:yaml.org,2002:js/function at line 1, column 8).`,
    );
  });

  it('names the file, not the flag, for a value of the wrong type', () => {
    const wrong = file('wrong.yaml', 'topK: ten\n');
    expect(() => readRunConfigFile(wrong)).toThrow(new RegExp(`^${wrong}: topK: .*expected number`, 'i'));
    const preset = file('wrong-preset.json', JSON.stringify({ config: { weights: [0.5, 'x'] } }));
    expect(() => loadPreset(preset)).toThrow(new RegExp(`^${preset}: config: weights\\.1: `));
  });

  it('refuses values nested deeper than the cap in one sentence, never a stack overflow', () => {
    for (const [name, text] of [
      ['deep.json', `{"label": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
      ['deep.yaml', `label: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`],
      ['deeper-than-cap.json', `{"weights": ${'['.repeat(CONFIG_MAX_DEPTH)}${']'.repeat(CONFIG_MAX_DEPTH)}}`],
    ]) {
      const path = file(name!, text!);
      expect(() => readRunConfigFile(path)).toThrow(
        `${path} nests values more than ${CONFIG_MAX_DEPTH} levels deep; a run config holds flat values.`,
      );
    }
  });
});

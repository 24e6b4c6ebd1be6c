import { describe, expect, it } from 'vitest';
import { FLAG_KEYS } from '../cli/run-command.js';
import { listPresets, loadPreset } from '../config/presets.js';
import { parseRunConfig } from '../config/run-sections.js';
import { coerceGridValue, expandGrid, parseGridAxis, variantFolder } from './ablation-grid.js';

describe('ablation grids', () => {
  it('parses axes by run option name and expands every combination in order', () => {
    const axes = [
      parseGridAxis('session-aware=false,true', FLAG_KEYS),
      parseGridAxis('top-sessions=3,5,10', FLAG_KEYS),
    ];
    expect(axes[0]).toEqual({ flag: 'session-aware', key: 'sessionAware', values: [false, true] });
    const variants = expandGrid(axes);
    expect(variants.map((variant) => variant.name)).toEqual([
      'session-aware=false,top-sessions=3',
      'session-aware=false,top-sessions=5',
      'session-aware=false,top-sessions=10',
      'session-aware=true,top-sessions=3',
      'session-aware=true,top-sessions=5',
      'session-aware=true,top-sessions=10',
    ]);
    expect(variants[4]!.overrides).toEqual({ sessionAware: true, topSessions: 5 });
    expect(variantFolder(variants[4]!.name)).toBe('session-aware-true_top-sessions-5');
  });

  it('coerces booleans, numbers, tuples and strings', () => {
    expect(coerceGridValue('true')).toBe(true);
    expect(coerceGridValue('0.25')).toBe(0.25);
    expect(coerceGridValue('0.3:0.7')).toEqual([0.3, 0.7]);
    expect(coerceGridValue('bm25-official')).toBe('bm25-official');
  });

  it('names an unknown key and lists the known ones', () => {
    expect(() => parseGridAxis('top-session=3', FLAG_KEYS)).toThrow(
      /"top-session" is not a run option; known: .*top-sessions/,
    );
    expect(() => parseGridAxis('top-sessions', FLAG_KEYS)).toThrow(/expects key=value1,value2/);
    expect(() => parseGridAxis('top-sessions=3,3', FLAG_KEYS)).toThrow(/lists a value twice/);
  });
});

describe('presets', () => {
  it('load into valid configs, and an unknown name lists the known presets', () => {
    for (const name of listPresets()) {
      expect(() => parseRunConfig(loadPreset(name).config), name).not.toThrow();
      expect(loadPreset(name).description, name).not.toBe('');
    }
    expect(listPresets()).toEqual(
      expect.arrayContaining(['contextual-hybrid', 'multi-route', 'multi-signal', 'session-aware']),
    );
    expect(parseRunConfig(loadPreset('multi-route').config)).toMatchObject({
      retriever: 'multi-route',
      routes: 'hybrid',
      sessionFirst: true,
      granularity: 'turn',
    });
    expect(parseRunConfig(loadPreset('bm25-official').config).tokenizer).toBe('official');
    expect(() => loadPreset('nope')).toThrow(/Unknown preset "nope"; known: .*bm25-official/);
  });

  it('makes session-aware runs turn-granularity', () => {
    expect(parseRunConfig({ retriever: 'session-aware', granularity: 'session' }).granularity).toBe('turn');
    expect(parseRunConfig({ sessionAware: true, granularity: 'session' }).granularity).toBe('turn');
  });
});

describe('config validation', () => {
  it('refuses an endpoint URL that carries credentials, naming the key', () => {
    expect(() => parseRunConfig({ baseUrl: 'https://user:secret@example.com/v1' })).toThrow(
      /baseUrl: must not carry credentials/,
    );
    expect(parseRunConfig({ baseUrl: 'https://example.com/v1' }).baseUrl).toBe('https://example.com/v1');
  });
});

import { describe, expect, it } from 'vitest';
import { loadPreset } from '../config/presets.js';
import { parseRunConfig } from '../config/run-sections.js';
import { checkReaderSettings } from '../run/phases/qa-stage.js';

describe("the paper's QA settings as presets", () => {
  it.each(['paper-oracle', 'paper-full-history', 'paper-retrieval'])(
    '%s is a valid run config with the official reader and judge',
    (name) => {
      const config = parseRunConfig(loadPreset(name).config);
      expect(config).toMatchObject({
        readerModel: 'gpt-4o-2024-08-06',
        readerPrompt: 'cot',
        historyFormat: 'json',
        readerHistory: 'all',
        readerNotes: false,
        judgeModel: 'gpt-4o-2024-08-06',
      });
      expect(config.readerMaxTokens).toBeUndefined();
      expect(() => checkReaderSettings(config)).not.toThrow();
    },
  );

  it('paper-retrieval reads the top 50 retrieved sessions, as run_generation.sh does by default', () => {
    expect(parseRunConfig(loadPreset('paper-retrieval').config)).toMatchObject({
      provider: 'pipeline',
      tokenizer: 'official',
      granularity: 'session',
      readerTopK: 50,
      convention: 'official',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ineffectiveKeyWarnings } from './ineffective-keys.js';
import { groupConfig, parseRunConfig } from './run-sections.js';

describe('judge settings', () => {
  it('take effect with --answers provider, with no warning that the judge needs a reader', () => {
    const config = parseRunConfig({
      provider: 'http',
      providerUrl: 'http://127.0.0.1:9',
      answers: 'provider',
    });
    expect(
      ineffectiveKeyWarnings(groupConfig(config), ['judgeModel', 'judgeBaseUrl', 'judge', 'judgeSamples']),
    ).toEqual([]);
    expect(ineffectiveKeyWarnings(groupConfig(parseRunConfig({})), ['judgeModel'])).toEqual([
      '--judge-model has no effect without --reader-model or --answers provider.',
    ]);
  });

  it('warn that k judge calls at temperature 0 will rarely disagree', () => {
    const warned = parseRunConfig({ readerModel: 'gpt-4o-mini', judgeSamples: 3 });
    expect(ineffectiveKeyWarnings(groupConfig(warned), [])).toEqual([
      "--judge-samples 3 at --judge-temperature 0: the votes will rarely differ (set a temperature such as 0.7 to measure the judge's agreement).",
    ]);
    expect(ineffectiveKeyWarnings(groupConfig({ ...warned, judgeTemperature: 0.7 }), [])).toEqual([]);
    expect(() => parseRunConfig({ judgeTemperature: 3 })).toThrow(/judgeTemperature.*--judge-temperature/);
  });
});

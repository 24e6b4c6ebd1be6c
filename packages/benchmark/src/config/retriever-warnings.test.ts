import { describe, expect, it } from 'vitest';
import { ineffectiveKeyWarnings } from './ineffective-keys.js';
import { parseRunConfig } from './parse-run-config.js';
import type { RunConfigInput } from './run-config.js';

const warnings = (input: RunConfigInput, flags: string[]) =>
  ineffectiveKeyWarnings(parseRunConfig(input), flags);

describe('the has-no-effect warnings of the keys base retrievers read (from their capabilities)', () => {
  it('name the retrievers that read the route settings', () => {
    expect(
      warnings({ retriever: 'multi-route' }, [
        'timeBoost',
        'denseNeighbours',
        'bm25K1',
        'bm25FeedbackDocs',
        'fusion',
      ]),
    ).toEqual([
      '--time-boost has no effect without --provider pipeline (not --retriever multi-route, multi-source or session-document).',
      '--dense-neighbours has no effect without a dense route (--retriever dense|hybrid|session-document, or --routes dense|hybrid), not --retriever multi-route or session-document.',
      '--bm25-k1 has no effect without --retriever bm25, hybrid or session-aware.',
      '--bm25-feedback-docs has no effect without --retriever bm25, hybrid or session-aware.',
      '--fusion has no effect without --retriever hybrid or session-aware (or multi-source over --routes hybrid).',
    ]);
    expect(warnings({ retriever: 'bm25' }, ['denseNeighbours', 'rrfK', 'weights'])).toEqual([
      '--dense-neighbours has no effect without a dense route (--retriever dense|hybrid|session-document, or --routes dense|hybrid), not --retriever multi-route or session-document.',
      '--rrf-k has no effect without --fusion rrf with --retriever hybrid or session-aware (or multi-source over --routes hybrid), or --retriever multi-route.',
      '--weights has no effect without --fusion weighted|combmnz with --retriever hybrid or session-aware (or multi-source over --routes hybrid).',
    ]);
  });

  it('say nothing where the retriever reads the key', () => {
    expect(warnings({ retriever: 'multi-route' }, ['rrfK', 'routes', 'sessionFirst'])).toEqual([]);
    expect(
      warnings({ retriever: 'session-aware', routes: 'bm25' }, ['fusion', 'bm25K1', 'timeBoost']),
    ).toEqual([]);
    expect(warnings({ retriever: 'multi-source', routes: 'dense' }, ['denseNeighbours'])).toEqual([]);
    expect(warnings({ retriever: 'multi-source', routes: 'hybrid' }, ['fusion', 'weights'])).toEqual([]);
    expect(warnings({ retriever: 'multi-source' }, ['timeBoost', 'bm25B'])).toEqual([
      '--time-boost has no effect without --provider pipeline (not --retriever multi-route, multi-source or session-document).',
      '--bm25-b has no effect without --retriever bm25, hybrid or session-aware.',
    ]);
    expect(warnings({ retriever: 'dense' }, ['denseNeighbours', 'fusion'])).toEqual([
      '--fusion has no effect without --retriever hybrid or session-aware (or multi-source over --routes hybrid).',
    ]);
  });
});

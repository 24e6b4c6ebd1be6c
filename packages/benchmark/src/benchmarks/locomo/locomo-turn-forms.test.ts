import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { buildCorpus } from '../build-corpus.js';
import { loadLocomo } from './load-locomo.js';

const fixture = resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json');

describe('LoCoMo turn forms (--turn-form)', () => {
  it('writes every indexed turn as MemPalace does (said) or as the official RAG database does (said-shared)', async () => {
    const [record] = (await loadLocomo(fixture)).records;
    const held = buildCorpus(record!, { granularity: 'session', indexRoles: 'user' }).documents;
    const said = buildCorpus(record!, {
      granularity: 'session',
      indexRoles: 'user',
      turnForm: 'said',
    }).documents;
    const shared = buildCorpus(record!, {
      granularity: 'turn',
      indexRoles: 'user',
      turnForm: 'said-shared',
    }).documents;
    const first = held[0]!.parts![0]!; // "<speaker>: <text>"
    const speaker = first.slice(0, first.indexOf(': '));
    expect(said[0]!.parts![0]).toBe(`${speaker} said, "${first.slice(speaker.length + 2)}"`);
    // A shared image's caption: left out by `said`, kept by `said-shared`.
    const captioned = held
      .flatMap((document) => document.parts!)
      .findIndex((part) => part.includes(' [shares '));
    expect(captioned).toBeGreaterThanOrEqual(0);
    expect(said.flatMap((document) => document.parts!)[captioned]).not.toContain('shared');
    expect(shared[captioned]!.text).toMatch(/" and shared /);
  });

  it('refuses a form the benchmark does not name, in one sentence naming the flag and the forms it has', async () => {
    const [record] = (await loadLocomo(fixture)).records;
    expect(() =>
      buildCorpus(record!, { granularity: 'session', indexRoles: 'user', turnForm: 'sayd' }),
    ).toThrow('--turn-form sayd: the locomo benchmark names no such form (it has said, said-shared).');
  });
});

import { describe, expect, it } from 'vitest';
import { namesPredicatesDistance, namesPredicatesQuery } from './names-predicates.js';

// Worked by hand from MemPalace `benchmarks/locomo_bench.py` at 9b7cfc99 (`_person_names`, `_kw`,
// `_quoted_phrases` and the hybrid rerank of `run_benchmark`).
describe("MemPalace's LoCoMo hybrid v5 rerank", () => {
  const question = 'What did Caroline say about the "pottery class" she took in May with Melanie?';

  it('reads names (less their not-names), predicate words (less stop words and names) and quoted phrases', () => {
    const parsed = namesPredicatesQuery(question);
    // "What" and "May" are not names; "Caroline" and "Melanie" are.
    expect([...parsed.names].sort()).toEqual(['Caroline', 'Melanie']);
    // _kw: [a-z]{3,} of the lower-cased text less STOP_WORDS ('what', 'did', 'about', 'with'), then
    // less the names' words; 'may' is no name here, so it stays a predicate word.
    expect(parsed.predicates).toEqual(['say', 'pottery', 'class', 'she', 'took', 'may']);
    expect(parsed.quoted).toEqual(['pottery class']);
  });

  it('multiplies the distance by each boost that finds something, and by nothing else', () => {
    const parsed = namesPredicatesQuery(question);
    const document = 'Melanie said, "I loved the Pottery Class we took"';
    // predicates found: pottery, class, took (3 of 6): 1 - 0.5 * 0.5; quoted: 1 of 1: 1 - 0.6;
    // names: Melanie, 1 of 2: 1 - 0.2 * 0.5.
    expect(namesPredicatesDistance(1.2, parsed, document)).toBeCloseTo(1.2 * 0.75 * 0.4 * 0.9, 12);
    // Nothing found: the distance is left as it is.
    expect(namesPredicatesDistance(1.2, parsed, 'Jon said, "hello"')).toBe(1.2);
  });

  it('keeps a question without names, keywords or quotes at its distance', () => {
    const parsed = namesPredicatesQuery('What is it?');
    expect(parsed).toEqual({ names: [], predicates: [], quoted: [] });
    expect(namesPredicatesDistance(0.7, parsed, 'anything at all')).toBe(0.7);
  });
});

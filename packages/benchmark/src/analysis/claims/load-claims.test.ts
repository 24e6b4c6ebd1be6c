import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIMS_DIR, claimNamed, listClaimIds, loadClaims, readClaim } from './load-claims.js';

/** The fields of a claim file the tests below change. */
type EditableClaim = {
  published: { metric: string }[];
  recipe: { config: Record<string, unknown> };
  benchmark: { name: string };
  official: string;
  questions?: unknown;
};

/** A claim of the folder rewritten by `change`, in a scratch folder. */
function changedClaim(change: (claim: EditableClaim) => void): string {
  const [first] = listClaimIds();
  const claim = JSON.parse(readFileSync(join(CLAIMS_DIR, `${first}.json`), 'utf8'));
  change(claim);
  const path = join(mkdtempSync(join(tmpdir(), 'lme-claims-')), 'changed.json');
  writeFileSync(path, JSON.stringify(claim));
  return path;
}

describe('claims as data', () => {
  it('reads every claim of configs/claims, each checked against the metric variants and run options', () => {
    const claims = loadClaims();
    expect(claims.length).toBeGreaterThanOrEqual(10);
    for (const claim of claims) {
      expect(claim.published.length).toBeGreaterThan(0);
      expect(claim.source.files.length).toBeGreaterThan(0);
    }
  });

  it('refuses an unknown metric variant in one sentence naming the file and field', () => {
    const path = changedClaim((claim) => {
      claim.published[0]!.metric = 'recall_any@5';
    });
    expect(() => readClaim(path)).toThrow(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: published\\.0\\.metric: unknown metric variant "recall_any@5"`,
      ),
    );
  });

  it('refuses an unknown run option, benchmark or official metric, naming the field', () => {
    const option = changedClaim((claim) => {
      claim.recipe.config.retreiver = 'bm25';
    });
    expect(() => readClaim(option)).toThrow(
      /changed\.json: recipe\.config: unknown key "retreiver" \(close names: retriever\)/,
    );
    const value = changedClaim((claim) => {
      claim.recipe.config.granularity = 'paragraph';
    });
    expect(() => readClaim(value)).toThrow(/changed\.json: recipe\.config: granularity: /);
    const benchmark = changedClaim((claim) => {
      claim.benchmark.name = 'longmemevel';
    });
    expect(() => readClaim(benchmark)).toThrow(
      /changed\.json: benchmark\.name: unknown benchmark "longmemevel"/,
    );
    const official = changedClaim((claim) => {
      claim.official = 'session.recall_all@7';
    });
    expect(() => readClaim(official)).toThrow(
      /changed\.json: official: unknown metric "session\.recall_all@7"/,
    );
    const missingField = changedClaim((claim) => {
      delete claim.questions;
    });
    expect(() => readClaim(missingField)).toThrow(/changed\.json: questions: /);
  });

  it('names the close claim of an unknown id', () => {
    const [first] = listClaimIds();
    expect(() => claimNamed(`${first}x`)).toThrow(new RegExp(`did you mean ${first}\\?`));
  });
});

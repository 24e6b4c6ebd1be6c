import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVIDENCE_HEADLINE_METRICS, HEADLINE_METRICS } from '../run/outputs/render-table.js';
import { REPO_ROOT } from '../testing/run-cli.js';

/** The README's section under `## <title>`, up to the next `## `. */
function section(title: string): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

// Issue 52, item 8: context.evidence_recall was in the main job's table but not explained.
describe('the README', () => {
  it('explains under "What the numbers mean" every metric a run table leads with', () => {
    const meaning = section('What the numbers mean');
    const names = new Set(
      [...HEADLINE_METRICS, ...EVIDENCE_HEADLINE_METRICS].map((metric) =>
        metric.startsWith('context.') || metric.startsWith('qa.')
          ? metric
          : metric.replace(/^(session|turn)\./, '').replace(/@\d+$/, '@k'),
      ),
    );
    for (const name of names)
      expect(meaning, name).toContain(
        `**${name}**`.replace('**qa.accuracy_strict**', '`qa.accuracy_strict`'),
      );
  });

  // Issue 60, item 8: the bridges and hosted adapters were in no README line nor its table.
  it('lists every page of docs/ in its documentation table, and names the bridges and hosted adapters', () => {
    const table = section('Documentation');
    const pages = readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    for (const page of pages) expect(table, page).toContain(`| [docs/${page}](docs/${page})`);
    const external = section('Scoring your own memory system');
    expect(external).toMatch(/lme bridges install mem0 mempalace/);
    expect(external).toContain('[docs/bridges.md](docs/bridges.md)');
    expect(external).toContain('[docs/hosted-adapters.md](docs/hosted-adapters.md)');
  });

  it('gives the headline figures for a user, not the history of how they were reached', () => {
    const headline = section('Headline figures');
    expect(headline).not.toMatch(/\bround (one|two|three|four|five|six|seven)\b|\brounds\b|issue \d+/i);
  });
});

import { describe, expect, it } from 'vitest';
import { groupForLeaderboard } from './leaderboard-groups.js';
import { parseSince } from './list-runs.js';
import { renderLeaderboard } from './render-leaderboard.js';
import { renderRunsCsv, renderRunsText } from './render-runs-list.js';
import { type RunOverview, withoutLoopbackAddress } from './run-overview.js';

function overview(runId: string, overrides: Partial<RunOverview> = {}): RunOverview {
  return {
    run_id: runId,
    dir: `/r/${runId}`,
    label: null,
    benchmark: 'longmemeval',
    dataset: 'sample',
    dataset_sha256: 'a'.repeat(64),
    dataset_file_sha256: 'f'.repeat(64),
    convention: 'official',
    exclusion: 'A',
    granularity: 'session',
    index_roles: 'user',
    preset: null,
    system: 'bm25',
    provider_name: null,
    provider_version: null,
    errata: 'none (official labels)',
    judge: null,
    questions_done: 22,
    questions_total: 22,
    failed: 0,
    state: 'complete',
    state_reason: null,
    headline: [{ metric: 'session.recall_any@5', value: 0.5, n: 18, ci95: null }],
    by_type: {},
    cost_usd: null,
    latency: { search_p50: 1, search_p95: 2, ingest_p50: null, ingest_p95: null },
    fingerprint: null,
    started_at: '2026-11-27T07:00:00.000Z',
    finished_at: '2026-11-27T07:01:00.000Z',
    lme_version: '0.1.0',
    git_commit: null,
    report: null,
    ...overrides,
  };
}

describe('leaderboard tables', () => {
  it('keeps comparable runs together and puts another checksum, errata or judge apart, saying why', () => {
    const groups = groupForLeaderboard([
      overview('a'),
      overview('b', { judge: null }),
      // A stopped run: no text checksum yet, the same file: comparable.
      overview('stopped', { dataset_sha256: null, state: 'partial' }),
      overview('other-data', { dataset_sha256: 'b'.repeat(64), dataset_file_sha256: 'c'.repeat(64) }),
      overview('errata', { errata: 'longmemeval-s@1 (3 questions touched, 0 excluded)' }),
      overview('judged', { judge: 'default (gpt-4o)' }),
      overview('judged-other', { judge: 'strict (gpt-4o)' }),
      overview('evidence', { convention: 'evidence', exclusion: null }),
    ]);
    expect(groups.map((group) => group.runs.map((run) => run.run_id))).toEqual([
      ['a', 'b', 'stopped', 'judged'],
      ['other-data'],
      ['errata'],
      ['judged-other'],
      ['evidence'],
    ]);
    expect(groups.map((group) => group.apart)).toEqual([
      null,
      'Not comparable with the table above: a different dataset checksum (bbbbbbbbbbbb…, not aaaaaaaaaaaa…).',
      'Not comparable with the table above: different errata (longmemeval-s@1, not none).',
      'Not comparable with the table above: a different judge (strict (gpt-4o), not default (gpt-4o)).',
      null,
    ]);
  });

  it('escapes every text of a run and shows ingest latency only when a run has it', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const html = renderLeaderboard(
      [
        overview('x', { label: hostile, system: `http ${hostile}`, state_reason: `"${hostile}` }),
        overview('y', { latency: { search_p50: 1, search_p95: 2, ingest_p50: 30, ingest_p95: 45.5 } }),
      ],
      { outFile: '/r/board.html', root: `/r/${hostile}` },
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('ingest p95 ms');
    expect(html).toContain('>45.5<');
    const without = renderLeaderboard([overview('x')], { outFile: '/r/board.html', root: '/r' });
    expect(without).not.toContain('ingest p50 ms');
  });
});

// Issue 60, item 4: 4- and 22-question runs, session and turn level, in one table sorted on a turn figure 5 of 7 rows lacked.
describe('leaderboard tables by question set', () => {
  const session = (value: number) => [{ metric: 'session.recall_any@5', value, n: 18, ci95: null }];
  const turn = (value: number) => [{ metric: 'turn.recall_any@5', value, n: 18, ci95: null }];

  it('puts runs on another question count or granularity in a table of their own, titled by it', () => {
    const groups = groupForLeaderboard([
      overview('full'),
      overview('four', { questions_total: 4, questions_done: 4 }),
      overview('turns', { granularity: 'turn' }),
      overview('full-2'),
    ]);
    expect(groups.map((group) => [group.title, group.runs.map((run) => run.run_id)])).toEqual([
      ['longmemeval · sample · official (exclusion A) · 22 questions · session level', ['full', 'full-2']],
      ['longmemeval · sample · official (exclusion A) · 4 questions · session level', ['four']],
      ['longmemeval · sample · official (exclusion A) · 22 questions · turn level', ['turns']],
    ]);
  });

  it('sorts a table on the first headline figure every run in it has', () => {
    const html = renderLeaderboard(
      [
        overview('pipeline', { headline: [...turn(0.9), ...session(0.6)] }),
        overview('mem0', { headline: session(0.8) }),
        overview('mempalace', { headline: session(0.7) }),
      ],
      { outFile: '/r/board.html', root: '/r' },
    );
    expect(html).toContain(
      '<th aria-sort="descending"><button type="button">session.recall_any@5</button></th>',
    );
    const order = [...html.matchAll(/data-run="([^"]+)"/g)].map((match) => match[1]);
    expect(order).toEqual(['mem0', 'mempalace', 'pipeline']);
  });

  it('says when runs in one table were given other turns', () => {
    const html = renderLeaderboard([overview('hybrid'), overview('mem0', { index_roles: 'all' })], {
      outFile: '/r/board.html',
      root: '/r',
    });
    expect(html).toContain(
      'Not on equal terms: hybrid indexed user turns only, mem0 every role (--index-roles all gives lme&#39;s pipeline what an external system gets).',
    );
    expect(
      renderLeaderboard([overview('a'), overview('b')], { outFile: '/r/board.html', root: '/r' }),
    ).not.toContain('Not on equal terms');
  });

  it("names an external system by what it reported, not by the bridge's random loopback port", () => {
    expect(withoutLoopbackAddress('mem0 mem0 2.2.1 at http://127.0.0.1:37761')).toBe('mem0 mem0 2.2.1');
    expect(withoutLoopbackAddress('http my-memory 1.4 at https://memory.example.com')).toBe(
      'http my-memory 1.4 at https://memory.example.com',
    );
  });
});

describe('the runs list', () => {
  it('keeps one line per run whatever a label holds, and escapes formulas in CSV', () => {
    const text = renderRunsText([overview('x', { label: 'two\nlines \u001b[2J' })], 1);
    expect(text.split('\n')[1]).toContain('two\\nlines \\x1b[2J');
    const csv = renderRunsCsv([overview('x', { label: '=HYPERLINK("http://x")' })]);
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv.split('\n')[0]).toContain('session.recall_any@5');
  });

  it('reads --since as a date or a span back from now, and refuses anything else in one sentence', () => {
    const now = new Date('2026-11-27T08:00:00Z');
    expect(parseSince('7d', now).toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect(parseSince('12h', now).toISOString()).toBe('2026-11-26T20:00:00.000Z');
    expect(parseSince('2026-11-20', now).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(() => parseSince('last week', now)).toThrow('--since "last week" is not a date');
  });
});

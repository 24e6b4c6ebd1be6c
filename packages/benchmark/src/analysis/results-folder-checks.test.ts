import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareResume, readManifest } from '../run/outputs/run-manifest.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { readExplainLines } from './read-explain-lines.js';
import { readRun, readSummaryOrRun } from './read-run.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit arbitrary JSON of a results folder
type Json = Record<string, any>;

const INJECTED = `<img src=x onerror="document.title='PWNED'">`;

/** A copy of a real run folder with one file's text changed by `edit`. */
function edited(source: string, file: string, edit: (text: string) => string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lme-hostile-folder-')), 'run');
  cpSync(source, dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return dir;
}

/** Changes one JSON file (or the first line of a JSON lines file) with `change`. */
function editJson(source: string, file: string, change: (value: Json) => void): string {
  return edited(source, file, (text) => {
    if (!file.endsWith('.jsonl')) {
      const value = JSON.parse(text);
      change(value);
      return JSON.stringify(value, null, 2);
    }
    const lines = text.split('\n');
    const value = JSON.parse(lines[0]!);
    change(value);
    lines[0] = JSON.stringify(value);
    return lines.join('\n');
  });
}

describe('every field of a results folder is checked on read (one sentence: file, line, field)', () => {
  let run: string;
  beforeAll(async () => {
    run = await makeSampleRun(mkdtempSync(join(tmpdir(), 'lme-checks-')), 'checked', { explain: true });
  }, 120_000);

  it("refuses a hit's rank that is markup instead of a number (samples.jsonl)", () => {
    const dir = editJson(run, 'samples.jsonl', (sample) => {
      sample.hits[0].rank = INJECTED;
    });
    expect(() => readRun(dir)).toThrow(
      `${join(dir, 'samples.jsonl')} line 1: field hits[0].rank is invalid (expected number, received string)`,
    );
  });

  it('refuses a wrong type anywhere in a sample: route traces, usage, judge, latency', () => {
    const cases: [string, (sample: Json) => void][] = [
      ['hits[0].routes.bm25.score', (sample) => (sample.hits[0].routes = { bm25: { score: 'x', rank: 1 } })],
      [
        'usage.judge.cost_usd',
        (sample) =>
          (sample.usage = {
            judge: { prompt_tokens: 1, completion_tokens: 1, cost_usd: '1', cached: false },
          }),
      ],
      [
        'judge.items[0].score',
        (sample) => (sample.judge = { score: 0, items: [{ name: 'a', score: '<b>' }] }),
      ],
      ['latency_ms.retrieve', (sample) => (sample.latency_ms.retrieve = '<b>')],
      ['gold_sessions[0]', (sample) => (sample.gold_sessions = [7])],
    ];
    for (const [field, change] of cases) {
      const dir = editJson(run, 'samples.jsonl', change);
      expect(() => readRun(dir)).toThrow(`line 1: field ${field} is invalid`);
    }
  });

  it('refuses a summary.json field of the wrong type, for report, compare and gate alike', () => {
    const dir = editJson(run, 'summary.json', (summary) => {
      summary.metrics.overall.counts['session.recall_any@5'] = INJECTED;
    });
    const expected = `${join(dir, 'summary.json')}: field metrics.overall.counts["session.recall_any@5"] is invalid`;
    expect(() => readRun(dir)).toThrow(expected);
    expect(() => readSummaryOrRun(join(dir, 'summary.json'))).toThrow(expected);
  });

  it('refuses a config.json field of the wrong type: the run config and the provenance', () => {
    const config = editJson(run, 'config.json', (manifest) => {
      manifest.config.topK = INJECTED;
    });
    expect(() => readRun(config)).toThrow(`${join(config, 'config.json')}: field config.topK is invalid`);
    const started = editJson(run, 'config.json', (manifest) => {
      manifest.provenance.started_at = INJECTED;
    });
    expect(() => readRun(started)).toThrow(`field provenance.started_at is invalid`);
  });

  it('refuses an explain.jsonl line whose gold rank is not a number', () => {
    const dir = editJson(run, 'explain.jsonl', (line) => {
      line.gold.sessions[0].rank = INJECTED;
    });
    expect(() => readExplainLines(dir)).toThrow(
      `${join(dir, 'explain.jsonl')} line 1: field gold.sessions[0].rank is invalid`,
    );
  });

  it('names a field whose name holds control characters without them (no raw ESC reaches the terminal)', () => {
    const dir = editJson(run, 'samples.jsonl', (sample) => {
      sample.metrics['\u001b]0;PWNED\u0007'] = 'x';
    });
    expect(() => readRun(dir)).toThrow('field metrics["\\u001b]0;PWNED\\u0007"] is invalid');
  });

  it('still reads the real folder it was copied from', () => {
    expect(readRun(run).samples).toHaveLength(22);
    expect(readExplainLines(run)?.size).toBe(22);
  });
});

describe('every file of a results folder is read through the guarded reader', () => {
  let run: string;
  beforeAll(async () => {
    run = await makeSampleRun(mkdtempSync(join(tmpdir(), 'lme-guarded-run-')), 'guarded');
  }, 120_000);

  /** A copy of the run with `name` replaced by what `make` puts at its path. */
  function replaced(name: string, make: (path: string) => void): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'lme-guarded-folder-')), 'run');
    cpSync(run, dir, { recursive: true });
    rmSync(join(dir, name));
    make(join(dir, name));
    return dir;
  }

  it('refuses a FIFO as summary.json, config.json or samples.jsonl at once, naming it', () => {
    for (const name of ['summary.json', 'config.json', 'samples.jsonl']) {
      const dir = replaced(name, (path) => execFileSync('mkfifo', [path]));
      expect(() => readRun(dir)).toThrow(
        `${join(dir, name)} is not a regular file (a device, a pipe or a socket); lme reads this from a regular file.`,
      );
    }
  });

  it('does not follow a link in the folder, to /dev/zero or to a real file', () => {
    for (const [name, target] of [
      ['summary.json', '/dev/zero'],
      ['config.json', '/dev/zero'],
      ['samples.jsonl', join(run, 'samples.jsonl')],
    ] as const) {
      const dir = replaced(name, (path) => symlinkSync(target, path));
      expect(() => readRun(dir)).toThrow(`${join(dir, name)} is a symbolic link; lme does not follow links`);
    }
    const explained = replaced('samples.csv', () => {});
    symlinkSync('/dev/zero', join(explained, 'explain.jsonl'));
    expect(() => readExplainLines(explained)).toThrow('explain.jsonl is a symbolic link');
  });

  it('refuses a summary.json larger than lme writes before reading it', () => {
    const dir = replaced('summary.json', (path) => {
      writeFileSync(path, '');
      truncateSync(path, 700 * 1024 * 1024);
    });
    expect(() => readSummaryOrRun(dir)).toThrow(
      `${join(dir, 'summary.json')} holds more than 64 MB, the most lme reads of such a file`,
    );
  });
});

describe("a run whose config.json records another run's rankings", () => {
  let run: string;
  let other: string;
  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-rankings-'));
    run = await makeSampleRun(out, 'bm25');
    other = await makeSampleRun(out, 'bm25-k1', { bm25K1: 0.5, limit: 6 });
  }, 120_000);

  it('is refused by merge, compare and gate (readRun) and by resume, naming the folder', async () => {
    const fingerprint = JSON.parse(readFileSync(join(other, 'config.json'), 'utf8')).fingerprint;
    const dir = editJson(run, 'config.json', (config) => {
      config.fingerprint = fingerprint;
    });
    const refusal = `${join(dir, 'config.json')} records rankings ${fingerprint.rankings.slice(0, 12)}…, but samples.jsonl beside it holds rankings`;
    expect(() => readRun(dir)).toThrow(refusal);
    expect(() => readSummaryOrRun(dir)).toThrow(refusal);
    const stored = readManifest(dir);
    await expect(
      prepareResume({ dir, config: stored.config, datasetPath: stored.dataset.path, argv: [] }),
    ).rejects.toThrow(refusal);
    expect(readRun(run).samples.length).toBe(22);
  });
});

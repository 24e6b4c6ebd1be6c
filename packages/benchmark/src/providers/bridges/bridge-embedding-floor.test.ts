import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SampleRecord, sampleRecords } from '@lme/search-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { type BridgeName, bridgePaths, bridgesDir } from './bridge-catalog.js';
import { readInstalledBridge } from './install-bridge.js';

// scripts/bridge-embedding-floor.py through each installed bridge's own Python, on the first two
// sample questions: the texts it counts must be the ones the bridge embeds, counted here from the
// records as the bridges' ingest code reads them. Skipped, saying why, where a bridge is not installed.

const SCRIPT = join(REPO_ROOT, 'scripts/bridge-embedding-floor.py');
const QUESTIONS = 2;

/** The script's `name: value` lines, values as printed. */
function fieldsOf(output: string): Map<string, string> {
  return new Map(
    output
      .split('\n')
      .map((line) => /^([A-Za-z/ ]+): (.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => [match[1]!, match[2]!]),
  );
}

function count(fields: Map<string, string>, name: string): number {
  const value = fields.get(name);
  expect(value, name).toMatch(/^\d+/);
  return Number.parseInt(value!, 10);
}

/** What each bridge (mode) embeds of the records, from packages/benchmark/bridges. */
const EXPECTED: Record<string, (records: readonly SampleRecord[]) => string[]> = {
  // mem0_bridge.py: every turn whose content is not blank, every role.
  mem0: (records) =>
    records.flatMap((record) =>
      record.haystack_sessions.flatMap((turns) =>
        turns.filter((turn) => turn.content.trim() !== '').map((turn) => turn.content),
      ),
    ),
  // mempalace_bridge.py's BenchBackend: each session with a user turn, its user turns joined.
  raw: (records) =>
    records.flatMap((record) =>
      record.haystack_sessions
        .map((turns) => turns.filter((turn) => turn.role === 'user').map((turn) => turn.content))
        .filter((user) => user.length > 0)
        .map((user) => user.join('\n')),
    ),
};

const CASES: [BridgeName, string[]][] = [
  ['mem0', []],
  ['mempalace', ['--mode', 'raw']],
  ['mempalace', ['--mode', 'mine']],
];

for (const [bridge, modeArgs] of CASES) {
  const missing = await readInstalledBridge(bridgesDir(), bridge).then(
    () => undefined,
    (error: Error) => error.message,
  );
  const mode = modeArgs[1] ?? bridge;
  describe.skipIf(missing !== undefined)(
    missing
      ? `bridge-embedding-floor.py, ${mode} (skipped: ${missing})`
      : `bridge-embedding-floor.py, ${mode}`,
    () => {
      let folder: string;
      let dataset: string;
      const records = sampleRecords().slice(0, QUESTIONS);
      const python = bridgePaths(bridgesDir(), bridge).python;
      const run = (args: string[]) =>
        spawnSync(python, [SCRIPT, '--bridge', bridge, ...modeArgs, ...args], {
          cwd: REPO_ROOT,
          encoding: 'utf8',
        });

      beforeAll(async () => {
        folder = await mkdtemp(join(tmpdir(), 'lme-floor-'));
        dataset = join(folder, 'sample.json');
        await writeFile(dataset, JSON.stringify(sampleRecords()));
      });
      afterAll(async () => {
        await rm(folder, { recursive: true, force: true });
      });

      it('counts the texts the bridge embeds, times every 20th and scales by tokens to the rest', () => {
        const result = run([
          '--data',
          dataset,
          '--limit-questions',
          String(QUESTIONS),
          '--fraction',
          '0.05',
          '--threads',
          '1',
        ]);
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        const fields = fieldsOf(result.stdout);
        expect(count(fields, 'questions')).toBe(QUESTIONS);
        const distinct = count(fields, 'distinct texts');
        const expected = EXPECTED[mode];
        if (expected) {
          const texts = expected(records);
          expect(count(fields, 'texts')).toBe(texts.length);
          expect(distinct).toBe(new Set(texts).size);
        } else {
          // MemPalace's miner cuts each session's transcript into drawers (or registers a repeated
          // one): every session with a non-blank turn is one or the other.
          const sessions = records.flatMap((record) =>
            record.haystack_sessions.filter((turns) => turns.some((turn) => turn.content.trim() !== '')),
          );
          expect(count(fields, 'sessions filed') + count(fields, 'registry sentinels')).toBe(sessions.length);
          expect(count(fields, 'texts')).toBeGreaterThanOrEqual(count(fields, 'sessions filed'));
          expect(distinct).toBeLessThanOrEqual(count(fields, 'texts'));
        }
        expect(count(fields, 'tokens')).toBeGreaterThan(distinct);
        expect(count(fields, 'timed texts')).toBe(Math.ceil(distinct / 20));
        expect(fields.get('timed texts')).toContain('every 20th of the length-sorted list');
        expect(fields.get('floor seconds')).toContain('extrapolated by model tokens');
        expect(Number.parseFloat(fields.get('floor seconds')!)).toBeGreaterThan(0);
        expect(Number.parseFloat(fields.get('floor CPU seconds')!)).toBeGreaterThan(0);
      }, 300_000);

      it('names the question whose haystack it cannot read', async () => {
        const broken = join(folder, 'broken.json');
        await writeFile(broken, JSON.stringify([{ question_id: 'q-without-haystack' }]));
        const result = run(['--data', broken]);
        expect(result.status).toBe(1);
        expect(result.stderr.trim()).toBe(
          `bridge-embedding-floor: ${broken}: question q-without-haystack has no haystack_sessions of turns with a role and a content`,
        );
      }, 60_000);
    },
  );
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './run-cli.js';
import { type SkippableTest, skippedTestsSummary } from './skipped-tests-reporter.js';

const test = (file: string, suite: string | undefined, state: string, note?: string): SkippableTest => ({
  fullName: `${suite ?? ''} > a test`,
  module: { relativeModuleId: file },
  parent: suite ? { type: 'suite', fullName: suite } : { type: 'module' },
  options: { mode: state === 'skipped' ? 'skip' : 'run' },
  result: () => ({ state, note }),
});

// Issue 60, item 11: 46 tests skipped at the end of `pnpm test` without saying why.
describe('the summary of skipped tests', () => {
  it('counts them per suite, with the reason its title or note gives, and says nothing when none skipped', () => {
    const summary = skippedTestsSummary([
      test(
        'bridges.test.ts',
        'mem0 bridge (skipped: not installed; run lme bridges install mem0)',
        'skipped',
      ),
      test(
        'bridges.test.ts',
        'mem0 bridge (skipped: not installed; run lme bridges install mem0)',
        'skipped',
      ),
      test('disk-full.test.ts', undefined, 'skipped', 'no tmpfs: run as root'),
      test('gate.test.ts', 'lme gate', 'passed'),
    ]);
    expect(summary).toBe(
      '\n3 skipped tests (each group says what it needs, such as an installed bridge, pandas, Chromium or the shared data beside the repository):\n' +
        '  2 in bridges.test.ts > mem0 bridge (skipped: not installed; run lme bridges install mem0)\n' +
        '  1 in disk-full.test.ts: no tmpfs: run as root\n',
    );
    expect(skippedTestsSummary([test('gate.test.ts', 'lme gate', 'passed')])).toBe('');
  });

  it('is the reporter pnpm test ends with, and vitest waits for its workers long enough to print no timeout', () => {
    const config = readFileSync(join(REPO_ROOT, 'vitest.config.ts'), 'utf8');
    expect(config).toMatch(/reporters: \['default', new SkippedTestsReporter\(\)\]/);
    expect(config).toMatch(/teardownTimeout: 60_000/);
  });
});

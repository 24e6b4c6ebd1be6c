import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SkippedTestsReporter } from './packages/benchmark/src/testing/skipped-tests-reporter.js';

/**
 * The longest files, slowest first (seconds of one file on a quiet 2-core machine, e020621): they
 * start first, so neither worker ends the run alone on one of them while the other sits idle. Files
 * not listed keep vitest's order (failed first, then longest by the last local run, else largest).
 */
const SLOW_FILES: readonly string[] = [
  'packages/benchmark/src/providers/bridges/bridges.test.ts', // 136 s (two Python bridges)
  'packages/benchmark/src/cli/documented-commands.test.ts', // 99 s (every documented command)
  'packages/benchmark/src/report/runs-index/runs-index.test.ts', // 28 s
  // Issue 47's tests, timed beside a second suite (load about 4): each copies the package or runs the CLI.
  'packages/benchmark/src/testing/release-results-folder.test.ts', // 34 s
  'packages/benchmark/src/providers/scratch-provider.test.ts', // 32 s
  'packages/benchmark/src/components/embedders/scratch-embedder.test.ts', // 28 s
  'packages/benchmark/src/components/retrievers/scratch-retriever.test.ts', // 27 s
  'packages/benchmark/src/components/component-names-check.test.ts', // 23 s
  'packages/benchmark/src/run/qa-run.test.ts', // 25 s
  'packages/benchmark/src/cli/cache-folders.test.ts', // 16 s
  'packages/benchmark/src/reference/official-reference.test.ts', // 15 s
  'packages/benchmark/src/cli/hostile-folder.test.ts', // 13 s
  'packages/benchmark/src/cli/cli.test.ts', // 13 s
  'packages/benchmark/src/cli/gate-command.test.ts', // 12 s
  'packages/benchmark/src/run/graded-qa-run.test.ts', // 12 s
  'packages/benchmark/src/cli/run-exit-codes.test.ts', // 12 s
  'packages/search-core/src/retrievers/session-aware-retriever.test.ts', // 11 s
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.findIndex((slow) => file.moduleId.endsWith(slow));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // A stable sort: the listed files first in their order, the rest as vitest sorted them.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects: [
      // Each project's files share one module graph per worker (isolate: false): a fresh process
      // per file cost more than most of its tests (search-core's 50 files on a loaded 2-core
      // machine: 28.1 s of CPU isolated, 13.3 s shared; the suite, with benchmark's 190 files
      // isolated too, 316.9 s of vitest duration on a quiet one, 279.6 s shared). What a test stubs
      // or mocks is undone after it (below); what a file leaves in module state, after the file
      // (testing/file-setup.ts).
      {
        extends: true,
        test: { name: 'search-core', include: ['packages/search-core/src/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'benchmark',
          include: ['packages/benchmark/src/**/*.test.ts'],
          isolate: false,
          setupFiles: ['packages/benchmark/src/testing/file-setup.ts'],
        },
      },
    ],
    sequence: { sequencer: SlowFirstSequencer },
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 60_000,
    // Set-up hooks make whole runs too: 10 s (vitest's default) was exceeded once with three workers.
    hookTimeout: 60_000,
    // Also how long vitest waits for a worker to exit before it prints `[vitest-pool]: Timeout
    // terminating forks worker` (a line that looks like a failure): on a loaded 2-core machine a
    // worker holding the module graph of a hundred files took more than the default 10 s.
    teardownTimeout: 60_000,
    // After vitest's own summary, which skipped tests there were and what each group needs.
    reporters: ['default', new SkippedTestsReporter()],
    // Many tests wait on the CLI processes they spawn: on 2 cores vitest's default (cores - 1, one
    // worker) left a core idle, 940 s for the suite. Three workers took 634-721 s there, but in two
    // of four CI runs one test or hook ran past its timeout; two workers share the cores instead.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One temporary folder per run (TMPDIR for workers and the processes they spawn), removed after it.
    globalSetup: ['./vitest.global-setup.ts'],
  },
});

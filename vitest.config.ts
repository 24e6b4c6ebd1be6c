import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects: [
      { extends: true, test: { name: 'search-core', include: ['packages/search-core/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'benchmark', include: ['packages/benchmark/src/**/*.test.ts'] } },
    ],
    testTimeout: 60_000,
    // Set-up hooks make whole runs too: 10 s (vitest's default) was exceeded once with three workers.
    hookTimeout: 60_000,
    // Many tests wait on the CLI processes they spawn: on 2 cores vitest's default (cores - 1, one
    // worker) left a core idle, 940 s for the suite. Three workers took 634-721 s there, but in two
    // of four CI runs one test or hook ran past its timeout; two workers share the cores instead.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One temporary folder per run (TMPDIR for workers and the processes they spawn), removed after it.
    globalSetup: ['./vitest.global-setup.ts'],
  },
});

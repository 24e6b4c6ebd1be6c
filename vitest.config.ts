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
    // One temporary folder per run (TMPDIR for workers and the processes they spawn), removed after it.
    globalSetup: ['./vitest.global-setup.ts'],
  },
});

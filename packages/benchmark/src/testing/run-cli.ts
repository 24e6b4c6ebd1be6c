import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
const CLI = resolve(REPO_ROOT, 'packages/benchmark/src/cli/main.ts');
const BUILT_CLI = resolve(REPO_ROOT, 'packages/benchmark/dist/bundle/main.js');

/**
 * The node arguments that start the CLI in a test: the build, when vitest.global-setup.ts found it
 * up to date with the sources (LME_TEST_CLI=dist; about 3 s less per process than tsx on a loaded
 * 2-core machine), else the sources through tsx. Both run the same code.
 */
export function cliArguments(): { args: string[]; environment: NodeJS.ProcessEnv } {
  if (process.env.LME_TEST_CLI === 'dist')
    return { args: [BUILT_CLI], environment: { LME_BUILD_CHECKED: '1' } };
  return { args: ['--import', 'tsx', '--conditions=source', CLI], environment: {} };
}

export type CliResult = { status: number | null; stdout: string; stderr: string };

/**
 * Runs the lme CLI from source in a child process (as `pnpm lme` does), from the repo root, and
 * waits for it synchronously: not for tests whose server lives in the test process (use startCli).
 */
export function runCli(args: readonly string[], environment: NodeJS.ProcessEnv = {}): CliResult {
  const cli = cliArguments();
  const result = spawnSync(process.execPath, [...cli.args, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...cli.environment, ...environment },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

import { type ChildProcess, spawn } from 'node:child_process';
import type { CliResult } from './run-cli.js';
import { cliArguments, REPO_ROOT } from './run-cli.js';

/** Starts the lme CLI from source without waiting, for tests that signal or kill it mid-run. */
export function startCli(
  args: readonly string[],
  environment: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<CliResult> } {
  const cli = cliArguments();
  const child = spawn(process.execPath, [...cli.args, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...cli.environment, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolveDone) => {
    child.on('close', (status, signal) =>
      resolveDone({ status: status ?? (signal ? -1 : null), stdout, stderr }),
    );
  });
  return { child, done };
}

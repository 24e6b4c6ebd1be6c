import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliArguments, REPO_ROOT } from '../testing/run-cli.js';

/** Runs the CLI with the read end of stdout or stderr closed before it writes (as `| head` leaves it). */
function runWithClosed(
  closed: 'stdout' | 'stderr',
  args: readonly string[],
): Promise<{ code: number | null; other: string }> {
  return new Promise((done, fail) => {
    const cli = cliArguments();
    const child = spawn(process.execPath, [...cli.args, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...cli.environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child[closed].destroy();
    let other = '';
    child[closed === 'stdout' ? 'stderr' : 'stdout'].on('data', (chunk) => {
      other += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, other }));
  });
}

describe('lme with a closed pipe', () => {
  it('exits quietly when stdout is closed (lme --help | head)', async () => {
    const { code, other } = await runWithClosed('stdout', ['--help']);
    expect(other).not.toContain('EPIPE');
    expect(other).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('keeps going when stderr is closed: its warnings are dropped, stdout and the exit code intact', async () => {
    // The fixture's load warning goes to stderr before the file's figures go to stdout.
    const { code, other } = await runWithClosed('stderr', [
      'datasets',
      'info',
      'datasets/fixtures/locomo-mini.json',
    ]);
    expect(other).toMatch(/^sha256 [0-9a-f]{64}$/m);
    expect(code).toBe(0);
  }, 60_000);

  it('keeps the exit code set so far when stdout closes', async () => {
    const { code, other } = await runWithClosed('stdout', ['datasets', 'info', '/nonexistent/file.json']);
    expect(other).toContain('/nonexistent/file.json');
    expect(code).toBe(1);
  }, 60_000);
});

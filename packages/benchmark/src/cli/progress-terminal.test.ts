import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArguments, REPO_ROOT, runCli } from '../testing/run-cli.js';

/** util-linux `script`, which runs a command under a pseudo-terminal. */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** `lme <args>` under a pseudo-terminal: what the terminal received (stdout and stderr together). */
function runInTerminal(args: readonly string[]): { status: number | null; text: string } {
  const cli = cliArguments();
  const command = [process.execPath, ...cli.args, ...args]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...cli.environment, COLUMNS: '160', LINES: '40' },
    timeout: 120_000,
  });
  return { status: result.status, text: result.stdout };
}

const sampleRun = (...flags: string[]) => [
  'run',
  ...flags,
  '--dataset',
  'sample',
  '--preset',
  'bm25',
  '--out',
  mkdtempSync(join(tmpdir(), 'lme-pty-')),
];

// Issue 52, item 1: under a pseudo-terminal every update arrived as escaped text on one line.
describe.skipIf(!hasScript)('the progress of lme run', () => {
  it('redraws clean lines in a terminal: real cursor controls, no escaped ones', () => {
    const { status, text } = runInTerminal(sampleRun());
    expect(status).toBe(0);
    expect(text).not.toMatch(/\\x0d|\\x1b|\\x07/);
    // Each redraw: back to the first column, the line, the rest of the old line cleared.
    const redraws = text
      .split('\u001b[1G')
      .slice(1)
      .map((part) => part.split('\u001b[0K')[0]!);
    expect(redraws.length).toBeGreaterThanOrEqual(2);
    for (const line of redraws) {
      expect(line).toMatch(/^\[[=-]{20}\] questions \d+\/22 \(\d+%\)/);
      expect([...line].filter((character) => character.charCodeAt(0) < 0x20)).toEqual([]);
    }
    expect(redraws.at(-1)).toMatch(
      /^\[={20}\] questions 22\/22 \(100%\) · [\d.]+ questions\/s · took \d+ s$/,
    );
  }, 180_000);

  it('prints plain lines into a pipe, and nothing under -q in a terminal', () => {
    const piped = runCli(sampleRun());
    expect(piped.status).toBe(0);
    expect(piped.stderr).not.toContain('\r');
    expect(piped.stderr).not.toContain('\u001b');
    expect(piped.stderr).toMatch(/^questions 22\/22 \(100%\) · [\d.]+ questions\/s · took \d+ s$/m);

    const quiet = runInTerminal(sampleRun('-q'));
    expect(quiet.status).toBe(0);
    expect(quiet.text).not.toContain('questions 1/22');
    expect(quiet.text).not.toContain('\u001b[1G');
  }, 180_000);
});

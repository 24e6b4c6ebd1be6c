import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeControlCharacters, terminalSafe } from '../config/terminal-text.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { recordRankings } from '../testing/record-rankings.js';
import { runCli } from '../testing/run-cli.js';

// A window title, a screen clear, a bell and a carriage return that would overwrite the line.
const HOSTILE = '\u001b]0;owned\u0007\u001b[2J\rfake';

describe('terminal control characters from data', () => {
  it('reach stdout and stderr escaped (lme explain of a question id and session id that hold them)', async () => {
    const dir = await makeSampleRun(mkdtempSync(join(tmpdir(), 'lme-escapes-')), 'escapes', {
      tokenizer: 'official',
    });
    const path = join(dir, 'samples.jsonl');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!);
    first.question_id = `q${HOSTILE}`;
    first.hits[0].session_id = `s${HOSTILE}`;
    lines[0] = JSON.stringify(first);
    writeFileSync(path, `${lines.join('\n')}\n`);
    recordRankings(dir);

    const explained = runCli(['explain', dir, `q${HOSTILE}`]);
    expect(explained.status).toBe(0);
    expect(explained.stdout).toContain('s\\x1b]0;owned\\x07\\x1b[2J\\x0dfake');
    expect(escapeControlCharacters(explained.stdout)).toBe(explained.stdout);
    const missing = runCli(['explain', dir, `nope${HOSTILE}`]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('nope\\x1b]0;owned');
    expect(escapeControlCharacters(missing.stderr)).toBe(missing.stderr);
  }, 60_000);

  it('keep newlines and tabs, and a progress bar its own cursor controls', () => {
    expect(escapeControlCharacters('a\tb\nc\u009bd')).toBe('a\tb\nc\\x9bd');
    expect(terminalSafe('\u001b[?25l')).toBe('\u001b[?25l');
    expect(terminalSafe('\u001b[1G\u001b[0K')).toBe('\u001b[1G\u001b[0K');
    expect(terminalSafe(`x ${HOSTILE}`)).toBe('x \\x1b]0;owned\\x07\\x1b[2J\\x0dfake');
  });
});

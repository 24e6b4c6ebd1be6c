import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';

/** Every file under `dir` with its content and modification time. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (!lstatSync(path).isFile()) continue;
    files.set(name, `${statSync(path).mtimeMs} ${readFileSync(path, 'utf8')}`);
  }
  return files;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

let root: string;
let outside: string;
let hostile: string;
let clean: string;

/**
 * A results folder as someone else could send it: every output lme writes is a link to a file
 * outside it (a shell start-up file, say), and its inputs are links to copies outside it too.
 */
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-hostile-'));
  outside = join(root, 'home');
  mkdirSync(outside);
  const runs = join(root, 'runs');
  clean = await makeSampleRun(runs, 'clean', { tokenizer: 'official' });
  hostile = join(runs, 'hostile');
  cpSync(clean, hostile, { recursive: true });
  const config = JSON.parse(readFileSync(join(hostile, 'config.json'), 'utf8'));
  config.run_id = 'hostile';
  config.config.runId = 'hostile';
  writeFileSync(join(outside, 'config-copy.json'), JSON.stringify(config));
  cpSync(join(hostile, 'samples.jsonl'), join(outside, 'samples-copy.jsonl'));
  const links: Record<string, string> = {
    'config.json': 'config-copy.json',
    'samples.jsonl': 'samples-copy.jsonl',
    'summary.csv': '.bashrc',
    'samples.csv': '.profile',
    'report.md': 'notes.md',
    'hypotheses.jsonl': 'hypotheses.txt',
    'explain.jsonl': 'explain.txt',
    'report.html': 'index.html',
    '.lme-run.lock': 'lock.txt',
  };
  for (const [name, target] of Object.entries(links)) {
    rmSync(join(hostile, name), { force: true });
    if (!name.endsWith('.json') && !name.endsWith('.jsonl') && name !== 'summary.json')
      writeFileSync(join(outside, target), `# ${target}, not lme's\n`);
    if (name === 'hypotheses.jsonl' || name === 'explain.jsonl')
      writeFileSync(join(outside, target), `# ${target}, not lme's\n`);
    symlinkSync(join(outside, target), join(hostile, name));
  }
});

describe('a results folder whose files are links to files outside it', () => {
  it('is refused by every command that reads a run, and no file outside it changes', () => {
    const before = snapshot(outside);
    const firstQuestion = JSON.parse(
      readFileSync(join(outside, 'samples-copy.jsonl'), 'utf8').split('\n')[0]!,
    ).question_id as string;
    // Its inputs are links too, so every command stops at its first read, naming the link.
    const commands: string[][] = [
      ['report', hostile],
      ['report', '--html', hostile],
      ['report', '--html', hostile, '--output', join(hostile, 'samples.jsonl')],
      ['compare', hostile, clean, '--output', join(hostile, 'report.md')],
      ['compare', clean, hostile],
      ['explain', hostile, firstQuestion],
      ['gate', hostile, '--min', 'session.recall_any@5>=0.1'],
      ['merge', hostile, '--out', join(root, 'merged')],
      ['merge', clean, '--out', hostile],
      ['run', '--resume', hostile, '--dataset', 'sample', '--data-dir', join(REPO_ROOT, 'datasets')],
    ];
    for (const args of commands) {
      const result = runCli(args);
      expect(result.status, `lme ${args.join(' ')}: ${result.stderr}`).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(
        /(is a symbolic link; lme does not (write through|follow) links|is one of the run's own files|already holds samples\.jsonl|in use by another run)/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(changedFiles(before, snapshot(outside))).toEqual([]);
  }, 240_000);

  it('is not replaced by lme run --overwrite when the run folder itself is a link', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'config.json'), '{"mine": true}\n');
    const out = join(root, 'linked-out');
    mkdirSync(out);
    symlinkSync(elsewhere, join(out, 'victim'));
    const result = runCli([
      'run',
      '--dataset',
      'sample',
      '--data-dir',
      join(REPO_ROOT, 'datasets'),
      '--out',
      out,
      '--run-id',
      'victim',
      '--overwrite',
      '--limit',
      '1',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^lme: Run folder .*victim is a symbolic link; --overwrite replaces only a real folder/,
    );
    expect(readdirSync(elsewhere)).toEqual(['config.json']);
    expect(readFileSync(join(elsewhere, 'config.json'), 'utf8')).toBe('{"mine": true}\n');
  }, 60_000);

  it("never writes an output over one of the run's own files (report --html --out, compare --out)", () => {
    const before = snapshot(clean);
    for (const name of ['samples.jsonl', 'config.json']) {
      const html = runCli(['report', '--html', clean, '--output', join(clean, name)]);
      expect(html.status).toBe(1);
      expect(html.stderr.trim()).toBe(
        `lme: --out ${join(clean, name)} is one of the run's own files (${join(clean, name)}); write the output elsewhere.`,
      );
    }
    const compare = runCli(['compare', clean, clean, '--output', join(clean, 'summary.json')]);
    expect(compare.status).toBe(1);
    expect(compare.stderr).toMatch(/is one of the run's own files/);
    expect(changedFiles(before, snapshot(clean))).toEqual([]);
  }, 60_000);
});

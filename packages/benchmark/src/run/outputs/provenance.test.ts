import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { LME_CHECKOUT, lmeGitState } from './provenance.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** A git repository of its own with one commit, as the user's project beside lme would be. */
function otherRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lme-other-repo-'));
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'notes.txt'), 'not lme\n');
  git(dir, 'add', 'notes.txt');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'other');
  return dir;
}

describe('provenance.git', () => {
  it("records lme's own checkout when lme runs from another repository's folder", () => {
    const other = otherRepository();
    // tsx is found from the current folder: this project links lme's dependencies, nothing else.
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(other, 'node_modules'));
    const script = join(other, 'provenance.ts');
    writeFileSync(
      script,
      `import { collectProvenance } from ${JSON.stringify(join(REPO_ROOT, 'packages/benchmark/src/run/outputs/provenance.ts'))};\n` +
        'process.stdout.write(JSON.stringify(collectProvenance([]).git));\n',
    );
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', script], {
      cwd: other,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    const recorded = JSON.parse(result.stdout) as { commit: string | null };
    expect(recorded.commit).toBe(git(REPO_ROOT, 'rev-parse', 'HEAD'));
    expect(recorded.commit).not.toBe(git(other, 'rev-parse', 'HEAD'));
  });

  it("records no commit when lme's folder is not the top of a repository (installed inside another project)", () => {
    const other = otherRepository();
    const nested = join(other, 'node_modules');
    mkdirSync(nested);
    expect(lmeGitState(nested)).toEqual({ commit: null, dirty: null });
    expect(LME_CHECKOUT).toBe(REPO_ROOT);
  });
});

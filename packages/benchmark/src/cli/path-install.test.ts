import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';

// Issue 52, item 3: the README's way onto the PATH (`pnpm link --global`) failed with
// ERR_PNPM_NO_GLOBAL_BIN_DIR on a fresh machine until `pnpm setup` had run.
describe("the README's way to put lme on the PATH", () => {
  const installCommand = (file: string) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(/\s+/g, ' ');
    return {
      command: /put it on your PATH with `([^`]+)` in `packages\/benchmark`/.exec(text)?.[1],
      // Issue 60, item 7: the README said `npm link`, docs/cli.md `pnpm link --global`.
      others: text.match(/pnpm link --global|pnpm setup/g) ?? [],
    };
  };

  it('is the one way README.md and docs/cli.md both give', () => {
    const readme = installCommand('README.md');
    const cli = installCommand('docs/cli.md');
    expect(readme.command).toBeDefined();
    expect(cli.command).toBe(readme.command);
    expect([...readme.others, ...cli.others]).toEqual([]);
  });

  it('works as written on a machine with nothing set up, into a global folder of its own', () => {
    const { command } = installCommand('README.md');
    expect(command).toBeDefined();
    // npm's (and pnpm's) global folders point into a fresh temporary one: nothing global is touched.
    const prefix = mkdtempSync(join(tmpdir(), 'lme-path-'));
    const environment = { ...process.env, npm_config_prefix: prefix, PNPM_HOME: '', XDG_DATA_HOME: prefix };
    const result = spawnSync('sh', ['-c', command!], {
      cwd: join(REPO_ROOT, 'packages/benchmark'),
      encoding: 'utf8',
      env: environment,
      timeout: 120_000,
    });
    expect(result.stderr).not.toMatch(/ERR_/);
    expect(result.status).toBe(0);
    // <prefix>/bin/lme is this checkout's command.
    expect(realpathSync(join(prefix, 'bin', 'lme'))).toBe(
      realpathSync(join(REPO_ROOT, 'packages/benchmark/bin/lme.js')),
    );
  }, 150_000);
});

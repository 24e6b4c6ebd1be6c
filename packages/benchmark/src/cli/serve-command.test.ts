import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliArguments, REPO_ROOT, runCli } from '../testing/run-cli.js';

describe('lme serve', () => {
  it('prints its URL on stderr, serves the protocol behind its token, and stops cleanly on SIGINT', async () => {
    const token = 'serve-cli-token-0123456789';
    const cli = cliArguments();
    const child = spawn(
      process.execPath,
      [
        ...cli.args,
        'serve',
        '--port',
        '0',
        '--tokenizer',
        'official',
        '--max-memory-mb',
        '64',
        '--auth-env',
        'LME_SERVE_CLI_TOKEN',
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...cli.environment, LME_SERVE_CLI_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      const url = await new Promise<string>((found, failed) => {
        const timer = setTimeout(() => failed(new Error(`no URL on stderr: ${stderr}`)), 30_000);
        child.stderr.on('data', () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
          if (match) {
            clearTimeout(timer);
            found(match[1]!);
          }
        });
      });
      // lme run's --index-roles default (user), not another one.
      expect(stderr).toContain('bm25 (official tokenizer, user roles, at most 64 MB, bearer token required)');
      expect((await fetch(`${url}/v1/health`)).status).toBe(401);
      const health = await (
        await fetch(`${url}/v1/health`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      expect(health).toMatchObject({
        status: 'ok',
        retriever: 'bm25',
        tokenizer: 'official',
        index_roles: 'user',
        max_memory_mb: 64,
      });
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stderr).toContain('lme serve: stopped');
      expect(stderr).not.toContain(token);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('needs the variable --auth-env names', () => {
    const result = runCli(['serve', '--port', '0', '--auth-env', 'LME_SERVE_UNSET_TOKEN'], {
      LME_SERVE_UNSET_TOKEN: '',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'lme: The environment variable LME_SERVE_UNSET_TOKEN (named by --auth-env) is not set; it must hold the token clients send as Authorization: Bearer <token>.\n',
    );
  });

  it('needs --port', () => {
    const result = runCli(['serve']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/required option '-p, --port <n>' not specified/);
  });
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatCompletionReply, type OpenAiWireServer, startOpenAiWireServer } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { EXIT } from './exit-codes.js';

const BM25 = ['run', '--dataset', 'sample', '--preset', 'bm25-official'];

describe('lme exit codes', () => {
  it('exits 2 after writing every output when questions failed, naming the first and the rerun', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-exit-'));
    // The server is up (preflight passes) but refuses every completion: every reader call fails.
    const refusing = await startOpenAiWireServer({
      '/chat/completions': () => ({ status: 400, json: { error: { message: 'unknown model' } } }),
    });
    const result = await startCli(
      [
        ...BM25,
        '--out',
        out,
        '--run-id',
        'failing',
        '--limit',
        '2',
        '--reader-model',
        'gpt-4o-mini',
        '--max-retries',
        '0',
      ],
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: refusing.baseUrl },
    ).done.finally(() => refusing.close());
    expect(result.status).toBe(EXIT.failedQuestions);
    const dir = join(out, 'failing');
    expect(readFileSync(join(dir, 'summary.json'), 'utf8')).toContain('"errors": 2');
    expect(result.stderr).toMatch(
      new RegExp(`2 of 2 questions failed; first: \\w+: .+; rerun with --resume ${dir} --retry-errors`),
    );
    expect(result.stdout).toContain('No question finished: all 2 failed');
  });

  it('exits 1 in one sentence for a run id that would leave --out', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-exit-'));
    const result = runCli([...BM25, '--out', join(out, 'results'), '--run-id', '..']);
    expect(result.status).toBe(EXIT.error);
    expect(result.stderr).toMatch(/--run-id must not be "\." or "\.\."/);
  });

  it('prints the package version', () => {
    const result = runCli(['--version']);
    expect(result.status).toBe(EXIT.ok);
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/benchmark/package.json'), 'utf8'));
    expect(result.stdout.trim()).toBe(version);
  });
});

describe('lme run interrupted', () => {
  let server: OpenAiWireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('prints the resume hint on SIGTERM, and on a second signal that quits at once', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ ...chatCompletionReply('Yes.'), delayMs: 400 }),
    });
    const environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl };
    const out = mkdtempSync(join(tmpdir(), 'lme-signal-'));
    const args = (runId: string) => [
      ...BM25,
      '--out',
      out,
      '--run-id',
      runId,
      '--reader-model',
      'gpt-4o-mini',
      '--no-cache',
    ];
    // Completions only: the preflight's GET /models comes before the run has a folder.
    const completions = () =>
      server!.requests.filter((request) => request.path === '/chat/completions').length;
    const waitForRequests = async (count: number) => {
      while (completions() < count) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    const terminated = startCli(args('term'), environment);
    await waitForRequests(1);
    terminated.child.kill('SIGTERM');
    const term = await terminated.done;
    expect(term.status).toBe(EXIT.interrupted);
    expect(term.stderr).toContain(`Continue with: lme run --resume ${join(out, 'term')}`);

    const seen = completions();
    const twice = startCli(args('twice'), environment);
    await waitForRequests(seen + 1);
    twice.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 50));
    twice.child.kill('SIGINT');
    const result = await twice.done;
    // A second signal that lands while the process is already exiting ends it by SIGINT itself,
    // which a shell reports as 130 too (startCli gives -1 for "ended by a signal").
    expect([EXIT.interrupted, -1]).toContain(result.status);
    // Whether the second signal lands before the run has stopped or after, the hint is printed.
    expect(result.stderr).toMatch(
      new RegExp(
        `(quitting now; finished questions are saved\\.|Run interrupted;.*) Continue with: lme run --resume ${join(out, 'twice')}`,
      ),
    );
  }, 60_000);
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatCompletionReply, type OpenAiWireServer, startOpenAiWireServer } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { EXIT } from './exit-codes.js';

const json = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const GATE = ['--min', 'session.recall_any@5>=0.1'];

describe('a run that stops early', () => {
  let server: OpenAiWireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is marked partial, exits 2 and fails the gate unless --allow-partial (--max-cost, no usage)', async () => {
    const reply = chatCompletionReply('Yes.');
    delete (reply.json as { usage?: unknown }).usage;
    server = await startOpenAiWireServer({ '/chat/completions': () => reply });
    const out = mkdtempSync(join(tmpdir(), 'lme-partial-'));
    const run = await startCli(
      [
        'run',
        '--dataset',
        'sample',
        '--preset',
        'bm25-official',
        '--limit',
        '4',
        '--out',
        out,
        '--run-id',
        'no-usage',
        '--reader-model',
        'gpt-4o-mini',
        '--no-cache',
        '--max-cost',
        '1',
      ],
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl },
    ).done;
    const dir = join(out, 'no-usage');
    expect(run.status).toBe(EXIT.failedQuestions);
    expect(run.stderr).toMatch(/stopped: the server reported no token usage for question/);
    const summary = json(dir, 'summary.json');
    expect(summary.n).toBe(1);
    expect(summary.partial.reason).toMatch(/^the server reported no token usage for question/);
    const config = json(dir, 'config.json');
    expect(config.provenance.started_at).toMatch(/^\d{4}-/);
    expect(config.finished_at).toBeUndefined();
    expect(config.partial.reason).toBe(summary.partial.reason);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(/^PARTIAL RUN: the server reported/);

    const gate = runCli(['gate', dir, ...GATE]);
    expect(gate.status).toBe(EXIT.gateFailed);
    expect(gate.stdout).toMatch(/The run is partial: the server reported no token usage .*--allow-partial\./);
    const allowed = runCli(['gate', dir, ...GATE, '--allow-partial']);
    expect(allowed.status).toBe(EXIT.ok);
    expect(allowed.stderr).toMatch(/warning: The run is partial \(--allow-partial\)/);
  }, 60_000);

  it('stays partial after SIGTERM and lme report, and the gate refuses it', async () => {
    server = await startOpenAiWireServer({
      '/chat/completions': () => ({ ...chatCompletionReply('Yes.'), delayMs: 300 }),
    });
    const out = mkdtempSync(join(tmpdir(), 'lme-partial-'));
    const started = startCli(
      [
        'run',
        '--dataset',
        'sample',
        '--preset',
        'bm25-official',
        '--out',
        out,
        '--run-id',
        'term',
        '--reader-model',
        'gpt-4o-mini',
        '--no-cache',
      ],
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl },
    );
    // Completions only: the preflight's GET /models is no question.
    const completions = () => server!.requests.filter((request) => request.path === '/chat/completions');
    while (completions().length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    started.child.kill('SIGTERM');
    expect((await started.done).status).toBe(EXIT.interrupted);
    const dir = join(out, 'term');
    expect(json(dir, 'config.json').partial.reason).toMatch(/interrupted by a signal/);
    const report = runCli(['report', dir]);
    expect(report.status).toBe(EXIT.ok);
    expect(report.stdout).toMatch(/^PARTIAL RUN: interrupted by a signal/);
    expect(json(dir, 'summary.json').partial.reason).toMatch(/interrupted by a signal/);
    const gate = runCli(['gate', dir, ...GATE]);
    expect(gate.status).toBe(EXIT.gateFailed);
    expect(gate.stdout).toMatch(/The run is partial: interrupted by a signal/);
  }, 60_000);
});

import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { EXIT } from './exit-codes.js';

describe('lme ablate', () => {
  it('names its folder by --run-id, never by the slashes of a dataset path, and refuses it twice', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-ablate-'));
    const dataset = join(out, 'copy.json.gz');
    copyFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), dataset);
    const args = [
      'ablate',
      '--dataset',
      dataset,
      '--grid',
      'tokenizer=official,words',
      '--out',
      join(out, 'r'),
    ];
    const first = runCli([...args, '--run-id', 'abl']);
    expect(first.status, first.stderr).toBe(EXIT.ok);
    expect(readdirSync(join(out, 'r'))).toEqual(['abl']);
    expect(existsSync(join(out, 'r', 'abl', 'report.md'))).toBe(true);
    const again = runCli([...args, '--run-id', 'abl']);
    expect(again.status).toBe(EXIT.error);
    expect(again.stderr).toMatch(/Run folder .*abl already exists/);
    const unnamed = runCli([...args, '--grid', 'seed=1']);
    expect(unnamed.status, unnamed.stderr).toBe(EXIT.ok);
    const folders = readdirSync(join(out, 'r')).filter((name) => name !== 'abl');
    expect(folders).toHaveLength(1);
    expect(folders[0]).toMatch(/-ablation-copy-[0-9a-f]{4}$/);
  }, 120_000);

  it('exits 2 after writing every variant when questions failed, naming the variant and the first failure', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-ablate-fail-'));
    // A provider that is up (its health check passes) but refuses every question.
    const server = createServer((incoming, outgoing) => {
      incoming.resume();
      const healthy = incoming.url === '/v1/health';
      outgoing.writeHead(healthy ? 200 : 400, { 'content-type': 'application/json' });
      outgoing.end(healthy ? '{"status": "ok"}' : '{"error": {"message": "storage is down"}}');
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await startCli([
      'ablate',
      '--dataset',
      'sample',
      '--provider',
      'http',
      '--provider-url',
      url,
      '--provider-retries',
      '0',
      '--question-types',
      'multi-session',
      '--grid',
      'top-k=5,10',
      '--out',
      out,
      '--run-id',
      'down',
    ]).done.finally(() => server.close());
    expect(result.status, result.stderr).toBe(EXIT.failedQuestions);
    expect(result.stderr).toMatch(/variant top-k=5: 4 of 4 questions failed; first: [0-9a-z_]+: /);
    expect(result.stderr).toMatch(/variant top-k=10: 4 of 4 questions failed/);
    expect(existsSync(join(out, 'down', 'report.md'))).toBe(true);
  }, 120_000);
});

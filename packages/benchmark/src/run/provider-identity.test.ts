import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProvider, identityText, publicUrl } from '../results/provider-identity.js';
import { runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { type StandInServer, startProviderStandIn } from '../testing/stand-in-servers.js';

const TOKEN = 'Bearer sk-identity-secret-4f8a2c91';

describe('an external system keeps its identity', () => {
  let root: string;
  let server: StandInServer;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'lme-provider-identity-'));
    // The name echoes the credentials it was sent: they must not reach a results file.
    server = await startProviderStandIn({
      health: { status: 'ok', name: 'my-memory', version: `1.4.0 ${TOKEN}`, memory_mb: 3 },
    });
  });

  afterAll(async () => {
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('in the run id, config.json, summary.json, report.md and the HTML report', async () => {
    const out = join(root, 'runs');
    const { done } = startCli(
      [
        'run',
        '--dataset',
        'sample',
        '--provider',
        'http',
        '--provider-url',
        server.url,
        '--provider-auth-env',
        'LME_TEST_PROVIDER_AUTH',
        '--out',
        out,
      ],
      { LME_TEST_PROVIDER_AUTH: TOKEN, LME_CACHE_DIR: join(root, 'cache') },
    );
    const result = await done;
    expect(result.status, result.stderr).toBe(0);
    // Named after the server, not after the pipeline's default retriever (bm25) it never ran.
    const [runId] = readdirSync(out);
    expect(runId).toMatch(/^[\dT-]+Z-http-my-memory-1\.4\.0-redacted-sample-[0-9a-f]{6}$/);
    const dir = join(out, runId!);
    const identity = { kind: 'http', url: server.url, name: 'my-memory', version: '1.4.0 [redacted]' };
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).provider).toEqual(identity);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).provider).toEqual(identity);
    const header = `${runId} · provider http my-memory 1.4.0 [redacted] at ${server.url} · dataset sample`;
    expect(readFileSync(join(dir, 'report.md'), 'utf8').split('\n')[0]).toContain(header);
    expect(result.stdout).toContain(header);

    const html = join(root, 'report.html');
    const report = runCli(['report', dir, '--html', '--output', html]);
    expect(report.status, report.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain(`http my-memory 1.4.0 [redacted] at ${server.url}`);

    const compared = runCli(['compare', dir, dir]);
    expect(compared.status, compared.stderr).toBe(0);
    expect(compared.stdout).toContain(`${dir} (provider my-memory 1.4.0 [redacted] at ${server.url}) (base)`);

    // The token the server echoed reached no file of the run.
    for (const name of readdirSync(dir)) {
      expect(readFileSync(join(dir, name), 'utf8'), name).not.toContain('sk-identity');
    }
  }, 120_000);
});

describe('provider identity text', () => {
  it('keeps no credentials, query or fragment of a URL', () => {
    expect(publicUrl('https://user:pass1234@mem.example:8443/base/?api_key=sk-12345678#x')).toBe(
      'https://mem.example:8443/base',
    );
    expect(publicUrl('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
  });

  it('keeps a reported name printable and bounded', () => {
    expect(identityText('my\u001b[31mmemory\n 1.0')).toBe('my [31mmemory 1.0');
    expect(identityText('x'.repeat(500))).toHaveLength(100);
    expect(identityText(42)).toBeUndefined();
    expect(identityText('  ')).toBeUndefined();
    expect(describeProvider({ kind: 'http', url: 'http://h:1', name: 'm', version: '2' })).toBe(
      'm 2 at http://h:1',
    );
    expect(describeProvider({ kind: 'http', url: 'http://h:1' })).toBe('http://h:1');
  });
});

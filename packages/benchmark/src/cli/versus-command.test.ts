import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { type StarterServer, startStarter } from '../testing/starter-server.js';

let server: StarterServer | undefined;

afterEach(() => {
  server?.stop();
  server = undefined;
});

const configOf = (dir: string) =>
  (
    JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      config: { provider: string; indexRoles: string };
    }
  ).config;

// The external system here is examples/starter-server.py, a stand-in speaking lme's http protocol.
describe('lme versus <system>', () => {
  it("runs lme's pipeline and the system on the same questions and turns, then compares them", async () => {
    server = await startStarter();
    const out = mkdtempSync(join(tmpdir(), 'lme-versus-'));
    const result = await startCli([
      'versus',
      'http',
      '--provider-url',
      server.url,
      '-d',
      'sample',
      '--preset',
      'bm25',
      '--limit',
      '4',
      '--out',
      out,
      '--ablation-id',
      'vs',
    ]).done;
    expect(result.status).toBe(0);
    const dir = join(out, 'vs');
    const pipeline = configOf(join(dir, 'provider-pipeline'));
    const system = configOf(join(dir, 'provider-http'));
    // Equal terms: both given every role, as an external system is by default.
    expect([pipeline.provider, pipeline.indexRoles]).toEqual(['pipeline', 'all']);
    expect([system.provider, system.indexRoles]).toEqual(['http', 'all']);
    expect(result.stderr).toContain('both systems get every role (--index-roles all)');
    // The comparison, with compare's noise warning for so few questions, printed and kept.
    const table = readFileSync(join(dir, 'compare.md'), 'utf8');
    expect(result.stdout).toContain(table);
    expect(table).toMatch(/provider-pipeline \(base\) +\| +provider-http +\|/);
    expect(result.stderr).toMatch(/too few for any paired test/);
  });

  it('refuses the pipeline as the system and a --provider beside it, in one sentence', () => {
    const pipeline = runCli(['versus', 'pipeline', '-d', 'sample']);
    expect(pipeline.status).toBe(1);
    expect(pipeline.stderr).toContain('lme versus <system>: name an external system, not the pipeline.');
    const both = runCli(['versus', 'mem0', '--provider', 'http', '-d', 'sample']);
    expect(both.status).toBe(1);
    expect(both.stderr).toContain("lme versus mem0: --provider http is the system's place");
  });
});

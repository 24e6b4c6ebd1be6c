import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadLongMemEval } from '../../benchmarks/longmemeval/load-longmemeval.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { buildHtmlReport, resolveReportInputs } from '../../report/html/build-html-report.js';
import type { Sample } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import { startProtocolLogServer } from '../../testing/protocol-log-server.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { startCli } from '../../testing/run-cli-async.js';

const SAMPLE = resolve(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz');
const LOCOMO_MINI = resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json');

let records: LongMemEvalRecord[];
let server: Awaited<ReturnType<typeof startProtocolLogServer>> | undefined;

beforeAll(async () => {
  records = (await loadLongMemEval(SAMPLE)).records;
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'lme-external-'));
  const result = await startCli([
    'run',
    '--provider-url',
    server!.url,
    '--out',
    out,
    '--run-id',
    'r',
    ...args,
  ]).done;
  const dir = join(out, 'r');
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return {
    ...result,
    dir,
    out,
    read,
    samples: () =>
      read('samples.jsonl')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Sample),
  };
}

const ingests = () => server!.requests.filter((request) => request.path === '/v1/ingest');
type SentSession = { session_id: string; turns: { role: string }[] };
const sentSessions = () => ingests().flatMap((request) => request.body['sessions'] as SentSession[]);

describe('an external provider by default', () => {
  it('sends every role under opaque ids: no dataset session id, no id containing "answer", no question id', async () => {
    server = await startProtocolLogServer();
    const result = await run(['-d', SAMPLE, '--provider', 'http', '--limit', '3', '--seed', '1']);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const roles = new Set(sentSessions().flatMap((session) => session.turns.map((turn) => turn.role)));
    expect(roles).toEqual(new Set(['user', 'assistant']));
    const ids = [
      ...sentSessions().map((session) => session.session_id),
      ...server.requests.map((request) => String(request.body['namespace'] ?? '')),
    ];
    expect(ids.filter((id) => /answer/i.test(id))).toEqual([]);
    const wire = JSON.stringify(server.requests.map((request) => ({ ...request.body, query: undefined })));
    for (const record of records) {
      for (const id of record.haystack_session_ids) expect(wire).not.toContain(`"${id}"`);
      expect(wire).not.toContain(record.question_id);
    }
    // The run's config records what was sent: every role.
    expect(JSON.parse(result.read('config.json')).config.indexRoles).toBe('all');
    // Hits map back onto the dataset's own sessions for grading.
    const samples = result.samples();
    expect(samples).toHaveLength(3);
    for (const sample of samples) {
      const record = records.find((candidate) => candidate.question_id === sample.question_id)!;
      expect(record.haystack_session_ids).toContain(sample.hits[0]!.session_id);
    }
  });

  it('sends user turns only when asked (--index-roles user)', async () => {
    server = await startProtocolLogServer();
    const result = await run(['-d', SAMPLE, '--provider', 'http', '--limit', '1', '--index-roles', 'user']);
    expect(result.status).toBe(0);
    const roles = new Set(sentSessions().flatMap((session) => session.turns.map((turn) => turn.role)));
    expect(roles).toEqual(new Set(['user']));
  });
});

describe('one ingest per haystack', () => {
  it('ingests a conversation its questions share once, charges it to one question, and frees it after the last', async () => {
    server = await startProtocolLogServer({
      ingestUsage: { prompt_tokens: 300, completion_tokens: 20, cost_usd: 0.01 },
    });
    const result = await run(['-d', LOCOMO_MINI, '--provider', 'http', '-j', '3']);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const samples = result.samples();
    expect(samples).toHaveLength(7);
    expect(new Set(ingests().map((request) => request.body['namespace'])).size).toBe(1);
    expect(server.requests.filter((request) => request.path === '/v1/search')).toHaveLength(7);
    // Every namespace was reset after its last search.
    expect(server.live()).toEqual([]);
    const charged = samples.filter((sample) => sample.ingest_shared !== true);
    expect(charged).toHaveLength(1);
    expect(charged[0]!.latency_ms.ingest).toBeGreaterThan(0);
    expect(charged[0]!.usage['provider_ingest']).toEqual({
      prompt_tokens: 300,
      completion_tokens: 20,
      cost_usd: 0.01,
      cached: false,
    });
    for (const sample of samples.filter((candidate) => candidate.ingest_shared === true))
      expect(sample.latency_ms.ingest).toBe(0);

    const summary = JSON.parse(result.read('summary.json')) as Summary;
    expect(summary.ingest).toMatchObject({
      ingests: 1,
      shared: 6,
      usage: { ingests: 1, prompt_tokens: 300, completion_tokens: 20, cost_usd: 0.01 },
    });
    expect(summary.metrics.overall.metrics['latency.ingest_ms.p50']).toBe(charged[0]!.latency_ms.ingest);
    expect(summary.metrics.overall.counts['latency.ingest_ms.p95']).toBe(1);
    expect(result.read('report.md')).toMatch(
      /ingest: 1 ingest for 7 questions \(6 shared a haystack ingested before\) · p50 [\d.]+ ms/,
    );
    const csv = result.read('samples.csv').split('\n');
    expect(csv[0]).toContain('retrieve_ms,ingest_ms,ingest_shared');
    expect(result.read('summary.csv')).toContain('latency.ingest_ms.p95');
    // The HTML report shows the ingest under the run's time.
    const { html } = await buildHtmlReport({ inputs: resolveReportInputs([result.dir]) });
    expect(html).toMatch(/<small>ingest 1 ingest \(6 shared\) · p50 [\d.]+ ms · p95 [\d.]+ ms<\/small>/);
    // The documented contracts (docs/schemas) hold the new fields.
    const ajv = new Ajv2020({ allErrors: false, strict: true });
    addFormats.default(ajv);
    const schema = (name: string) =>
      ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, 'docs/schemas', name), 'utf8')));
    const [sampleSchema, summarySchema, configSchema] = ['sample', 'summary', 'config'].map((name) =>
      schema(`${name}.schema.json`),
    );
    for (const sample of samples)
      expect(sampleSchema!(sample), JSON.stringify(sampleSchema!.errors)).toBe(true);
    expect(summarySchema!(summary), JSON.stringify(summarySchema!.errors)).toBe(true);
    expect(configSchema!(JSON.parse(result.read('config.json'))), JSON.stringify(configSchema!.errors)).toBe(
      true,
    );
  });

  it('keeps one ingest per haystack when failed questions are retried on resume', async () => {
    const failing = (query: string) => /\b(when|what)\b/i.test(query);
    server = await startProtocolLogServer({ failSearches: failing });
    const first = await run(['-d', LOCOMO_MINI, '--provider', 'http', '--provider-retries', '0', '-j', '2']);
    expect(first.status).toBe(2);
    const failed = first.samples().filter((sample) => sample.error !== null).length;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(7);
    expect(ingests()).toHaveLength(1);
    expect(server.live()).toEqual([]);
    server.requests.length = 0;
    server.failSearches(undefined);
    const resumed = await startCli([
      'run',
      '--resume',
      first.dir,
      '--retry-errors',
      '--provider-url',
      server.url,
    ]).done;
    expect(resumed.status).toBe(0);
    // The questions retried share the conversation: one more ingest, freed after the last of them.
    expect(ingests()).toHaveLength(1);
    expect(server.requests.filter((request) => request.path === '/v1/search')).toHaveLength(failed);
    expect(server.live()).toEqual([]);
  });

  it('ingests a shared conversation once per shard', async () => {
    server = await startProtocolLogServer();
    const result = await run(['-d', LOCOMO_MINI, '--provider', 'http', '--shard', '2/2']);
    expect(result.status).toBe(0);
    const questions = result.samples().length;
    expect(questions).toBe(3);
    expect(ingests()).toHaveLength(1);
    expect(server.requests.filter((request) => request.path === '/v1/search')).toHaveLength(questions);
    expect(server.live()).toEqual([]);
  });

  it('gives every question its own namespace with --provider-option fresh-per-question=true', async () => {
    server = await startProtocolLogServer();
    const result = await run([
      '-d',
      LOCOMO_MINI,
      '--provider',
      'http',
      '--provider-option',
      'fresh-per-question=true',
    ]);
    expect(result.status).toBe(0);
    expect(new Set(ingests().map((request) => request.body['namespace'])).size).toBe(7);
    expect(result.samples().every((sample) => sample.ingest_shared !== true)).toBe(true);
    expect(JSON.parse(result.read('config.json')).provider_options).toEqual({ 'fresh-per-question': true });
  });

  it('runs against a server whose ingest reply has no usage', async () => {
    server = await startProtocolLogServer();
    const result = await run(['-d', SAMPLE, '--provider', 'http', '--limit', '2']);
    expect(result.status).toBe(0);
    const samples = result.samples();
    expect(
      samples.every((sample) => sample.error === null && sample.usage['provider_ingest'] === undefined),
    ).toBe(true);
    const summary = JSON.parse(result.read('summary.json')) as Summary;
    expect(summary.ingest).toMatchObject({ ingests: 2, shared: 0 });
    expect(summary.ingest?.usage).toBeUndefined();
  });
});

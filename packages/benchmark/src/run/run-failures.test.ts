import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { chatCompletionReply, type OpenAiWireServer, startOpenAiWireServer } from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunConfig, RunConfigInput } from '../config/run-config.js';
import { groupConfig } from '../config/run-sections.js';
import { createProvider } from '../providers/create-provider.js';
import { EXTERNAL_MEMORIES } from '../providers/external-memory-registry.js';
import { createPipelineProvider } from '../providers/pipeline/pipeline-provider.js';
import type { Provider } from '../providers/provider.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { renderSummaryTable } from './outputs/render-table.js';
import { runBenchmark } from './run-benchmark.js';

const config = (overrides: RunConfigInput = {}) =>
  sampleConfig({ tokenizer: 'official', ...overrides }, 'lme-fail-');
const SAMPLE = join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz');

/** BM25 that fails for the questions `fails` picks. */
function failingProvider(runConfig: RunConfig, fails: (id: string) => boolean): Provider {
  const inner = createPipelineProvider(groupConfig(runConfig));
  return {
    id: 'pipeline',
    async retrieve(options) {
      if (fails(options.record.question_id))
        throw new Error(`provider down for ${options.record.question_id}`);
      return inner.retrieve(options);
    },
  };
}

describe('failed questions', () => {
  it('are counted per type and shown in the table, never silently left out of the means', async () => {
    const base = config({ runId: 'some-fail' });
    const failing = new Set(['e47becba', '118b2229']);
    const { summary, table } = await runBenchmark(base, {
      argv: [],
      provider: failingProvider(base, (id) => failing.has(id)),
    });
    expect(summary.errors).toBe(2);
    expect(summary.first_error).toEqual({ question_id: 'e47becba', message: 'provider down for e47becba' });
    expect(summary.metrics.overall.errors).toBe(2);
    const perType = Object.fromEntries(
      Object.entries(summary.metrics.by_type).map(([type, means]) => [type, means.errors]),
    );
    expect(Object.values(perType).reduce<number>((sum, value) => sum + (value ?? 0), 0)).toBe(2);
    expect(summary.metrics.overall.n).toBe(16);
    expect(table).toContain('· 2 of 22 questions failed');
    expect(table).toMatch(/\| question_type +\| +n \| errors \|/);
    expect(table).toMatch(/\| overall +\| +16 \| +2 \|/);
  });

  it('all failing gives no table of empty rows', async () => {
    const base = config({ runId: 'all-fail' });
    const { summary, table } = await runBenchmark(base, {
      argv: [],
      provider: failingProvider(base, () => true),
    });
    expect(summary.errors).toBe(22);
    expect(table).not.toContain('| overall');
    expect(table).toContain(
      'No question finished: all 22 failed, so there is no figure to show (first: e47becba: provider down for e47becba).',
    );
  });
});

describe('a provider that can answer no more (its bridge process died)', () => {
  it('stops the run, saying why once, with what finished saved', async () => {
    const base = config({ runId: 'provider-died' });
    let died = false;
    const inner = failingProvider(base, (id) => {
      died ||= id === '118b2229';
      return died;
    });
    const { summary, stopReason, dir } = await runBenchmark(base, {
      argv: [],
      provider: {
        ...inner,
        unavailable: () => (died ? 'the mem0 bridge exited mid-run (exit code 3)' : undefined),
      },
    });
    expect(stopReason).toBe('the mem0 bridge exited mid-run (exit code 3)');
    expect(summary.errors).toBe(1);
    expect(samplesOf(dir).length).toBeLessThan(22);
  });
});

describe('preflight', () => {
  it('refuses unknown --question-types and --question-ids with close names, before any folder', async () => {
    const typo = config({ runId: 'typo', questionTypes: ['multi-sesion'] });
    await expect(runBenchmark(typo, { argv: [] })).rejects.toThrow(
      /--question-types names a question type that .* does not have: "multi-sesion" \(close names: multi-session\)\./,
    );
    const ids = config({ runId: 'ids', questionIds: ['e47becbb'] });
    await expect(runBenchmark(ids, { argv: [] })).rejects.toThrow(/"e47becbb" \(close names: e47becba/);
    expect(
      readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz')).length,
    ).toBeGreaterThan(0);
  });

  it('refuses a selection of no question', async () => {
    await expect(runBenchmark(config({ shard: '30/30' }), { argv: [] })).rejects.toThrow(
      /The selection --shard 30\/30 yields no question of .*; nothing was run\./,
    );
  });

  it('names the path of a missing, empty or folder dataset', async () => {
    const base = config();
    writeFileSync(join(base.out, 'empty.json'), '');
    await expect(
      runBenchmark({ ...base, dataset: join(base.out, 'empty.json') }, { argv: [] }),
    ).rejects.toThrow(`Dataset ${join(base.out, 'empty.json')} is empty (0 bytes) (--dataset).`);
    await expect(runBenchmark({ ...base, dataset: base.out }, { argv: [] })).rejects.toThrow(
      `Dataset ${base.out} is a folder, not a dataset file (--dataset).`,
    );
  });

  it('fails an unknown provider id listing the known ones', () => {
    expect(() =>
      createProvider(groupConfig({ ...config(), provider: 'memgpt' as RunConfig['provider'] }), 'x'),
    ).toThrow(
      // lme's own and http first, then every registered external memory system.
      `Unknown provider "memgpt" (--provider); known providers: ${['pipeline', 'full-context', 'oracle', 'http', ...Object.keys(EXTERNAL_MEMORIES)].join(', ')}.`,
    );
  });
});

describe('--resume', () => {
  it('refuses a dataset file other than the one the run started on', async () => {
    const base = config({ runId: 'resumed' });
    const dataset = join(base.out, 'data.json.gz');
    copyFileSync(SAMPLE, dataset);
    const first = await runBenchmark({ ...base, dataset }, { argv: [] });
    // Same ids, other text: the file is replaced under the same path.
    const records = JSON.parse(gunzipSync(readFileSync(SAMPLE)).toString()) as { question: string }[];
    for (const record of records) record.question += ' (edited)';
    writeFileSync(dataset, gzipSync(JSON.stringify(records)));
    await expect(
      runBenchmark({ ...base, dataset }, { argv: [], resume: { dir: first.dir } }),
    ).rejects.toThrow(
      /Cannot resume .*resumed: the dataset .*data\.json\.gz is not the file the run started on/,
    );
  });
});

describe('--max-cost', () => {
  let server: OpenAiWireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const qaConfig = (overrides: RunConfigInput) =>
    config({ readerModel: 'gpt-4o-mini', judgeModel: 'gpt-4o-mini', cache: false, ...overrides });

  it('refuses to start when a model has no price', async () => {
    const run = qaConfig({ readerModel: 'local-model', maxCost: 1, baseUrl: 'http://127.0.0.1:9/v1' });
    await expect(runBenchmark(run, { argv: [], environment: {} })).rejects.toThrow(
      '--max-cost cannot be enforced: the reader model "local-model" has no price in configs/prices.json; add its price or drop --max-cost.',
    );
  });

  it('counts the spend already recorded when resuming', async () => {
    server = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('Yes.') });
    const environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl };
    // One question (reader + judge, 100 + 5 tokens each at gpt-4o-mini prices) costs $0.000036.
    const run = qaConfig({ runId: 'budget', maxCost: 0.00005, baseUrl: server.baseUrl });
    const first = await runBenchmark(run, { argv: [], environment });
    expect(samplesOf(first.dir)).toHaveLength(2);
    expect(first.stoppedAtCost).toBeCloseTo(0.000072, 9);
    // Completions only: the resumed run's preflight asks GET /models once.
    const completions = () =>
      server!.requests.filter((request) => request.path === '/chat/completions').length;
    const before = completions();
    const resumed = await runBenchmark(run, { argv: [], environment, resume: { dir: first.dir } });
    expect(completions() - before).toBe(0);
    expect(samplesOf(resumed.dir)).toHaveLength(2);
    expect(resumed.stopReason).toMatch(/reached --max-cost/);
  });

  it('stops when the server reports no usage, since the spend is unknown', async () => {
    const reply = chatCompletionReply('Yes.');
    delete (reply.json as { usage?: unknown }).usage;
    server = await startOpenAiWireServer({ '/chat/completions': () => reply });
    const environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl };
    const run = qaConfig({ runId: 'no-usage', maxCost: 1, baseUrl: server.baseUrl });
    const result = await runBenchmark(run, { argv: [], environment });
    expect(samplesOf(result.dir)).toHaveLength(1);
    expect(result.stopReason).toBe(
      `the server reported no token usage for question ${samplesOf(result.dir)[0]!.question_id}, so --max-cost cannot be enforced`,
    );
  });
});

describe('negative token usage', () => {
  let server: OpenAiWireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('never makes spend negative, and --max-cost still stops the run', async () => {
    const reply = chatCompletionReply('Yes.');
    (reply.json as { usage: unknown }).usage = {
      prompt_tokens: -1e10,
      completion_tokens: -5,
      total_tokens: -1e10,
    };
    server = await startOpenAiWireServer({ '/chat/completions': () => reply });
    const environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl };
    const run = config({
      readerModel: 'gpt-4o-mini',
      judgeModel: 'gpt-4o-mini',
      cache: false,
      runId: 'negative',
      maxCost: 0.01,
      baseUrl: server.baseUrl,
    });
    const result = await runBenchmark(run, { argv: [], environment });
    expect(result.spend.usd).toBeGreaterThanOrEqual(0);
    expect(samplesOf(result.dir)).toHaveLength(1);
    expect(result.stopReason).toMatch(
      /reported no token usage for question .*so --max-cost cannot be enforced/,
    );
    for (const sample of samplesOf(result.dir)) {
      for (const usage of Object.values(sample.usage)) {
        expect(usage.prompt_tokens).toBeGreaterThanOrEqual(0);
        expect(usage.cost_usd ?? 0).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('the table', () => {
  it('explains vacuous rows under the official convention', async () => {
    const { summary } = await runBenchmark(config(), { argv: [] });
    const noTarget = Object.entries(summary.metrics.by_type).filter(
      ([, means]) => (means.no_target ?? 0) > 0,
    );
    expect(noTarget.length).toBeGreaterThan(0);
    const table = renderSummaryTable(summary);
    expect(table).toMatch(
      /Note: \d+ counted questions? (has|have) no user-side gold \(no_target: single-session-assistant \d+ of \d+.*\); recall_all is 1 for them, by the official scripts\. Leave them out with --exclusion B, or grade on answer_session_ids with --convention evidence\./,
    );
    expect(renderSummaryTable({ ...summary, exclusion: 'B' })).not.toContain('no user-side gold');
  });
});

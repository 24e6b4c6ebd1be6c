import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chatCompletionReply, type RecordedRequest, startOpenAiWireServer } from '@lme/search-core/testing';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBenchmark } from '../run/run-benchmark.js';
import {
  type ScriptedQuestion,
  scriptByPosition,
  startAnsweringMemoryServer,
} from '../testing/answering-memory-server.js';
import { containmentJudgeHandler } from '../testing/containment-judge.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { sampleConfig } from '../testing/sample-run.js';

// Real runs of the committed sample, each output checked against docs/schemas (the documented
// contract of docs/outputs.md).

const SCHEMAS = join(REPO_ROOT, 'docs/schemas');

function compile(ajv: Ajv2020, file: string): ValidateFunction {
  return ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')));
}

let validators: { config: ValidateFunction; sample: ValidateFunction; summary: ValidateFunction };

beforeAll(() => {
  const ajv = new Ajv2020({ allErrors: false, strict: true });
  addFormats.default(ajv);
  validators = {
    config: compile(ajv, 'config.schema.json'),
    sample: compile(ajv, 'sample.schema.json'),
    summary: compile(ajv, 'summary.schema.json'),
  };
});

/** `<file>: <instance path> <message>` of the first violation, or null when the value is valid. */
function firstViolation(validate: ValidateFunction, value: unknown, where: string): string | null {
  if (validate(value)) return null;
  const error = (validate.errors ?? [])[0] as ErrorObject;
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
      : '';
  return `${where}: ${error.instancePath || '/'} ${error.message}${extra}`;
}

/** Every violation-free file of a run folder gives []; otherwise the first violation per file. */
function violationsOf(dir: string): string[] {
  const json = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown;
  const lines = readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean);
  expect(lines.length).toBeGreaterThan(0);
  return [
    firstViolation(validators.config, json('config.json'), join(dir, 'config.json')),
    ...lines.map((line, index) =>
      firstViolation(validators.sample, JSON.parse(line), `${join(dir, 'samples.jsonl')} line ${index + 1}`),
    ),
    firstViolation(validators.summary, json('summary.json'), join(dir, 'summary.json')),
  ].filter((violation): violation is string => violation !== null);
}

describe('the documented output schemas', () => {
  it('reject an output that breaks the contract, naming the path of the violation', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-schema-'));
    const result = runCli(['run', '--dataset', 'sample', '--limit', '2', '--out', out, '--run-id', 'x']);
    expect(result.status, result.stderr).toBe(0);
    const line = JSON.parse(readFileSync(join(out, 'x', 'samples.jsonl'), 'utf8').split('\n')[0]!);
    const broken = { ...line, no_target: 'no', hits: [{ ...line.hits[0], rank: 0 }] };
    expect(firstViolation(validators.sample, broken, 'line 1')).toMatch(
      /^line 1: \/(no_target|hits\/0\/rank) /,
    );
    const { errors: _, ...summary } = JSON.parse(readFileSync(join(out, 'x', 'summary.json'), 'utf8'));
    expect(firstViolation(validators.summary, summary, 'summary.json')).toBe(
      "summary.json: / must have required property 'errors'",
    );
  });

  it('hold for a BM25 run with the official preset', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-schema-'));
    const args = [
      'run',
      '--dataset',
      'sample',
      '--preset',
      'bm25-official',
      '--out',
      out,
      '--run-id',
      'official',
    ];
    const result = runCli([...args, '--cache-dir', join(out, 'cache')]);
    expect(result.status, result.stderr).toBe(0);
    expect(violationsOf(join(out, 'official'))).toEqual([]);
  });

  it('hold for a turn-granularity run with --explain', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-schema-'));
    const result = runCli([
      'run',
      '--dataset',
      'sample',
      '--preset',
      'bm25',
      '--granularity',
      'turn',
      '--explain',
      '--out',
      out,
      '--run-id',
      'turn',
      '--cache-dir',
      join(out, 'cache'),
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(violationsOf(join(out, 'turn'))).toEqual([]);
  });

  it('hold for a QA run against a reader and judge over the OpenAI wire format', async () => {
    // The judge (max_tokens 10) says yes; one unreadable verdict gives a judge error to validate.
    const server = await startOpenAiWireServer({
      '/chat/completions': (request: RecordedRequest) => {
        const body = request.body as { max_tokens?: number; messages: { content: string }[] };
        if (body.max_tokens !== 10) return chatCompletionReply('answer: it depends');
        const prompt = body.messages[0]?.content ?? '';
        return chatCompletionReply(prompt.includes('How long is my daily commute') ? 'maybe' : 'Yes.');
      },
    });
    try {
      const out = mkdtempSync(join(tmpdir(), 'lme-schema-qa-'));
      const run = await startCli(
        [
          'run',
          '--dataset',
          'sample',
          '--reader-model',
          'gpt-4o-mini',
          '--judge-model',
          'gpt-4o-2024-08-06',
          '--label',
          'schema check',
          '--out',
          out,
          '--run-id',
          'qa',
          '--cache-dir',
          join(out, 'cache'),
        ],
        { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-lme-test-schema' },
      ).done;
      expect(run.status, run.stderr).toBe(0);
      const dir = join(out, 'qa');
      expect(violationsOf(dir)).toEqual([]);
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
      expect(summary.qa).toMatchObject({ judge: 'longmemeval', judge_model: 'gpt-4o-2024-08-06' });
      expect(summary.label).toBe('schema check');
    } finally {
      await server.close();
    }
  });

  it('hold for a run judging the provider’s own answers with repeated judging (--answers provider --judge-samples 3)', async () => {
    const questions = JSON.parse(
      gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'))).toString(
        'utf8',
      ),
    ) as ScriptedQuestion[];
    const memory = await startAnsweringMemoryServer({ script: scriptByPosition(questions) });
    const judge = await startOpenAiWireServer({ '/chat/completions': containmentJudgeHandler });
    try {
      const result = await runBenchmark(
        sampleConfig({
          provider: 'http',
          providerUrl: memory.url,
          answers: 'provider',
          judgeBaseUrl: judge.baseUrl,
          judgeSamples: 3,
          judgeTemperature: 0.5,
          cache: false,
        }),
        { argv: [], environment: { OPENAI_API_KEY: 'sk-lme-test-schema' } },
      );
      expect(result.summary.errors).toBe(5);
      expect(violationsOf(result.dir)).toEqual([]);
    } finally {
      await memory.close();
      await judge.close();
    }
  });
});

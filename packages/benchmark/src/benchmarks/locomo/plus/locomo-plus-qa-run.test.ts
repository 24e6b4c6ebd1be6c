import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chatCompletionReply, type RecordedRequest, startOpenAiWireServer } from '@lme/search-core/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../results/sample.js';
import { REPO_ROOT } from '../../../testing/run-cli.js';
import { startCli } from '../../../testing/run-cli-async.js';
import { type LocomoPlusRecord, loadLocomoPlus } from './load-locomo-plus.js';
import { locomoPlusJudgePrompt } from './locomo-plus-judge.js';
import {
  LOCOMO_PLUS_CONV_START_PROMPT,
  LOCOMO_PLUS_INSTRUCTION_COGNITIVE,
} from './locomo-plus-reader-prompt.js';

const promptOf = (request: RecordedRequest) =>
  (request.body as { messages?: { content: string }[] } | undefined)?.messages?.[0]?.content ?? '';
const isJudge = (request: RecordedRequest) =>
  promptOf(request).includes('Return your judgment strictly in JSON format');

/**
 * A scripted reader and judge: the reader answers "the cello" to a Cognitive question and "no
 * idea" to any other; the judge says `correct` to an answer naming the cello, `partial` to
 * Temporal Logic prompts (which the official temporal template does not offer: read as 0.5 all the
 * same), and a reply without a label to the Skeptical (adversarial) prompt.
 */
function reply(request: RecordedRequest) {
  const prompt = promptOf(request);
  if (!isJudge(request))
    return chatCompletionReply(
      prompt.includes(LOCOMO_PLUS_INSTRUCTION_COGNITIVE) ? ' the cello ' : 'no idea',
    );
  if (prompt.includes('Skeptical Judge')) return chatCompletionReply('I cannot tell.');
  if (prompt.includes('Temporal Logic Judge'))
    return chatCompletionReply('{"label": "partial", "reason": "close"}');
  const cello = /Model Prediction:\nthe cello\n/.test(prompt);
  return chatCompletionReply(JSON.stringify({ label: cello ? 'correct' : 'wrong', reason: 'scripted' }));
}

const ITEMS = [
  {
    cue_dialogue: 'A: I started learning the cello.\nB: Nice, keep at it.',
    trigger_query: 'A: My neighbours keep complaining about the noise.',
    time_gap: 'two months later',
  },
];

describe('a LoCoMo-Plus QA run over a loopback server', () => {
  it('reads with the official model input, judges with the official prompts and scores 1, 0.5 and 0, by default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-locomo-plus-qa-'));
    writeFileSync(join(dir, 'locomo_plus.json'), JSON.stringify(ITEMS));
    copyFileSync(resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'), join(dir, 'locomo10.json'));
    const dataset = join(dir, 'locomo_plus.json');
    const server = await startOpenAiWireServer({ '/chat/completions': reply });
    const out = join(dir, 'out');
    try {
      const result = await startCli(
        [
          'run',
          // No --convention, --reader-prompt or --judge: the benchmark's defaults (evidence, locomo-plus).
          ...['--dataset', dataset, '--preset', 'bm25', '--granularity', 'session'],
          ...['--reader-model', 'test-reader', '--judge-model', 'gpt-4o-mini'],
          ...['--out', out, '--run-id', 'qa', '--cache-dir', join(dir, 'cache')],
        ],
        { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-lme-test-locomo-plus' },
      ).done;
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/Error/);

      const config = JSON.parse(readFileSync(join(out, 'qa', 'config.json'), 'utf8'));
      expect(config.config).toMatchObject({
        convention: 'evidence',
        judge: 'locomo-plus',
        readerPrompt: 'locomo-plus',
      });
      const { records } = await loadLocomoPlus(dataset);
      const samples = readFileSync(join(out, 'qa', 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Sample);
      expect(samples).toHaveLength(records.length);
      const byId = new Map(records.map((record) => [record.question_id, record] as const));

      // Every judge call is the official prompt for the record and the stored prediction.
      const judgePrompts = server.requests.filter(isJudge).map(promptOf);
      for (const sample of samples) {
        const record = byId.get(sample.question_id) as LocomoPlusRecord;
        expect(judgePrompts).toContain(locomoPlusJudgePrompt(record, sample.hypothesis!));
        const expected =
          record.locomo_plus_category === 'Cognitive'
            ? 1
            : record.locomo_plus_category === 'temporal'
              ? 0.5
              : record.locomo_plus_category === 'adversarial'
                ? null
                : 0;
        expect(sample.judge?.score, sample.question_id).toBe(expected);
      }
      const cognitive = samples.find((sample) => sample.question_type === 'locomo-plus-cognitive')!;
      expect(cognitive.hypothesis).toBe('the cello');
      const readerPrompt = server.requests
        .map(promptOf)
        .find((prompt) => prompt.includes(LOCOMO_PLUS_INSTRUCTION_COGNITIVE))!;
      expect(
        readerPrompt.startsWith(LOCOMO_PLUS_CONV_START_PROMPT.replace('{}', 'A').replace('{}', 'B')),
      ).toBe(true);
      expect(readerPrompt.endsWith('Ana said, "My neighbours keep complaining about the noise."')).toBe(true);
      const judgeRequest = server.requests.find(isJudge)!;
      expect(judgeRequest.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, max_tokens: 512 });

      // The official judge_summary.json over the run: a reply without a label scores 0 there.
      const summary = JSON.parse(readFileSync(join(out, 'qa', 'summary.json'), 'utf8'));
      const count = (type: string) => samples.filter((sample) => sample.question_type === type).length;
      expect(summary.locomo_plus).toMatchObject({
        judge_model: 'gpt-4o-mini',
        total_samples: samples.length,
        judge_errors: count('locomo-plus-adversarial'),
        total_score: 1 + 0.5 * count('locomo-plus-temporal'),
      });
      expect(summary.locomo_plus.by_category.Cognitive).toEqual({ score: 1, count: 1, avg: 1 });
      expect(readFileSync(join(out, 'qa', 'report.md'), 'utf8')).toContain('### LoCoMo-Plus judge summary');

      // The outputs keep the documented contract (docs/schemas), the locomo_plus block included.
      const ajv = new Ajv2020({ strict: true });
      addFormats.default(ajv);
      const schema = (name: string) =>
        JSON.parse(readFileSync(resolve(REPO_ROOT, 'docs/schemas', name), 'utf8'));
      const validSummary = ajv.compile(schema('summary.schema.json'));
      expect(validSummary(summary), JSON.stringify(validSummary.errors)).toBe(true);
      const validSample = ajv.compile(schema('sample.schema.json'));
      for (const sample of samples)
        expect(validSample(sample), JSON.stringify(validSample.errors)).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('the LoCoMo-Plus conventions', () => {
  it('refuses --convention official in one sentence: LoCoMo-Plus grades under its evidence only', async () => {
    const dataset = resolve(REPO_ROOT, 'datasets/fixtures/locomo-plus-mini/locomo_plus.json');
    const out = mkdtempSync(join(tmpdir(), 'lme-locomo-plus-official-'));
    const result = await startCli([
      'run',
      ...['--dataset', dataset, '--convention', 'official', '--preset', 'bm25'],
      ...['--out', out, '--run-id', 'official'],
    ]).done;
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`--convention official: ${dataset} is a locomo-plus dataset`);
  }, 60_000);
});

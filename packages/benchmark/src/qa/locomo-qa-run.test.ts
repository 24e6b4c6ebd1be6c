import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chatCompletionReply, type RecordedRequest, startOpenAiWireServer } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import { scoreLocomoAnswer } from '../benchmarks/locomo/locomo-answer-score.js';
import { MEM0_ACCURACY_PROMPT } from '../benchmarks/locomo/locomo-judge.js';
import { LOCOMO_QA_PROMPT, LOCOMO_QA_PROMPT_CAT_5 } from '../benchmarks/locomo/locomo-prompts.js';
import { renderLocomoQaTables } from '../benchmarks/locomo/locomo-report.js';
import { pyRound3 } from '../benchmarks/python-number.js';
import type { Sample } from '../results/sample.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';

const conversationFile = resolve(REPO_ROOT, '../shared/datasets/locomo/locomo10-conv26.json');
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
const isJudge = (request: RecordedRequest) => promptOf(request).startsWith(MEM0_ACCURACY_PROMPT.slice(0, 60));
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

/**
 * A scripted reader and judge: the reader answers a category-5 question "(a)" and any other with
 * the first words of the top retrieved dialog; the judge says CORRECT when the answer shares a
 * word with the gold.
 */
function reply(request: RecordedRequest) {
  const prompt = promptOf(request);
  if (isJudge(request)) {
    const gold = /\nGold answer: (.*)\n/.exec(prompt)?.[1] ?? '';
    const generated = /\nGenerated answer: (.*)\n/.exec(prompt)?.[1] ?? '';
    const shared = [...words(generated)].some((word) => words(gold).has(word));
    return chatCompletionReply(JSON.stringify({ label: shared ? 'CORRECT' : 'WRONG' }));
  }
  if (prompt.includes('Select the correct answer: (a) ')) return chatCompletionReply('(a)');
  const quoted = / said, "([^"]*)"/.exec(prompt)?.[1] ?? 'nothing';
  return chatCompletionReply(quoted.split(' ').slice(0, 8).join(' '));
}

describe.skipIf(!existsSync(conversationFile))(
  `LoCoMo QA run over a loopback server (${conversationFile})`,
  () => {
    it('reads with the official LoCoMo prompt, scores the official F1 on every question and judges 1-4 with Mem0’s judge', async () => {
      const server = await startOpenAiWireServer({ '/chat/completions': reply });
      const out = mkdtempSync(join(tmpdir(), 'lme-locomo-qa-'));
      try {
        const result = await startCli(
          [
            'run',
            ...['--dataset', conversationFile, '--convention', 'evidence', '--preset', 'bm25'],
            ...['--granularity', 'turn', '--reader-context', 'turn', '--reader-prompt', 'locomo'],
            ...['--reader-model', 'test-reader', '--judge', 'locomo-llm', '--judge-model', 'gpt-4o-mini'],
            ...['--out', out, '--run-id', 'qa', '--cache-dir', join(out, 'cache')],
          ],
          { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-lme-test-locomo' },
        ).done;
        expect(result.stderr).not.toMatch(/Error/);
        expect(result.status).toBe(0);

        const samples = readFileSync(join(out, 'qa', 'samples.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Sample);
        expect(samples).toHaveLength(199);
        const adversarial = samples.filter((sample) => sample.question_type === 'locomo-5-adversarial');
        expect(adversarial).toHaveLength(47);
        for (const sample of adversarial) {
          expect(sample.judge).toBeNull();
          expect(sample.metrics['qa.accuracy_strict']).toBeUndefined();
          // "(a)" maps to option a: "Not mentioned in the conversation" or the adversarial answer.
          expect(sample.metrics['qa.locomo_f1']).toBe(
            sample.hypothesis === 'Not mentioned in the conversation' ? 1 : 0,
          );
        }

        // qa.locomo_f1 is the official score of the stored answer against the file's gold.
        const raw = JSON.parse(readFileSync(conversationFile, 'utf8'))[0].qa as {
          answer?: string | number;
          category: number;
        }[];
        const recomputed = samples.map((sample) => {
          const qa = raw[Number(/_q(\d+)/.exec(sample.question_id)![1]) - 1]!;
          const score = scoreLocomoAnswer({
            category: qa.category,
            answer: qa.answer,
            prediction: sample.hypothesis!,
          });
          return pyRound3(score).value === sample.metrics['qa.locomo_f1'];
        });
        expect(recomputed.filter(Boolean)).toHaveLength(199);

        // The run's preflight asked GET /models once; the rest are completions.
        const completions = server.requests.filter((request) => request.path === '/chat/completions');
        expect(server.requests.length - completions.length).toBe(1);
        const readerCalls = completions.filter((request) => !isJudge(request));
        const judgeCalls = completions.filter(isJudge);
        expect(readerCalls).toHaveLength(199);
        expect(judgeCalls).toHaveLength(152);
        for (const request of readerCalls) {
          const prompt = promptOf(request);
          expect((request.body as { max_tokens: number }).max_tokens).toBe(32);
          expect(prompt).toMatch(/^\d{1,2}:\d{2} [ap]m on \d{1,2} [A-Z][a-z]+, \d{4}: [^\n]+ said, "/);
          const template = prompt.includes('Select the correct answer')
            ? LOCOMO_QA_PROMPT_CAT_5
            : LOCOMO_QA_PROMPT;
          expect(prompt).toContain(`\n\n${template.split('{}')[0]}`);
        }

        const tables = renderLocomoQaTables(samples, { judge: 'locomo-llm (gpt-4o-mini, loopback)' });
        console.info(tables);
        expect(tables).toContain('| 5 adversarial | 47 | excluded (adversarial, as Mem0) |');
        expect(tables).toContain('| overall (1-4) | 152 |');
      } finally {
        await server.close();
      }
    }, 120_000);
  },
);

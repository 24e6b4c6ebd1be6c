import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chatCompletionReply, type RecordedRequest, startOpenAiWireServer } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import { startCli } from '../../testing/run-cli-async.js';
import { loadRealtalk } from './load-realtalk.js';
import { realtalkJudgePrompt } from './realtalk-judge.js';
import { realtalkPrompt, wholeChat } from './realtalk-prompts.js';
import { REALTALK_LEXICAL } from './realtalk-scores.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages?: { content: string }[] } | undefined)?.messages?.[0]?.content ?? '';
const isJudge = (request: RecordedRequest) =>
  promptOf(request).includes("evaluate the correctness of the model's prediction");

/** The reader answers "pottery, swimming"; the judge scores 0.5 in the template's own JSON (trailing comma). */
function reply(request: RecordedRequest) {
  return chatCompletionReply(isJudge(request) ? '{\n    "score": 0.5,\n}' : 'pottery, swimming');
}

describe('a REALTALK QA run over a loopback server', () => {
  it('reads with the official prompt over the whole chat, judges with the GPT-score prompt and reports both means by category', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-realtalk-qa-'));
    const server = await startOpenAiWireServer({ '/chat/completions': reply });
    const out = join(dir, 'out');
    try {
      const result = await startCli(
        [
          'run',
          // No --reader-prompt or --judge: the benchmark's defaults (realtalk, realtalk-gpt).
          ...['--dataset', FIXTURES, '--provider', 'full-context'],
          ...['--reader-model', 'test-reader', '--judge-model', 'gpt-4o-mini'],
          ...['--out', out, '--run-id', 'qa', '--cache-dir', join(dir, 'cache')],
        ],
        { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-lme-test-realtalk' },
      ).done;
      expect(result.status, result.stderr).toBe(0);
      const config = JSON.parse(readFileSync(join(out, 'qa', 'config.json'), 'utf8'));
      expect(config.config).toMatchObject({ judge: 'realtalk-gpt', readerPrompt: 'realtalk' });

      const { records } = await loadRealtalk(FIXTURES);
      const readerPrompts = server.requests.filter((request) => !isJudge(request)).map(promptOf);
      const judgePrompts = server.requests.filter(isJudge).map(promptOf);
      for (const record of records) {
        expect(readerPrompts).toContain(
          realtalkPrompt(record.realtalk_chat, wholeChat(record.realtalk_chat), record.question),
        );
        expect(judgePrompts).toContain(
          realtalkJudgePrompt(record.question, record.answer, 'pottery, swimming'),
        );
      }
      const samples = readFileSync(join(out, 'qa', 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Sample);
      const lexical = Object.fromEntries(
        samples.map((sample) => [sample.question_id, sample.metrics[REALTALK_LEXICAL]]),
      );
      // Category 1 "Pottery, hiking": pottery matches, hiking does not (0.5); the others share no token.
      expect(lexical).toEqual({
        Chat_1_Ana_Ben_q1: 0.5,
        Chat_1_Ana_Ben_q2: 0,
        Chat_1_Ana_Ben_q3: 0,
        Chat_2_Cy_Dee_q1: 0,
      });
      const summary = JSON.parse(readFileSync(join(out, 'qa', 'summary.json'), 'utf8'));
      expect(summary.realtalk.by_category['1']).toEqual({
        count: 2,
        lexical_mean: 0.25,
        gpt_mean: 0.5,
        gpt_scored: 2,
      });
      expect(readFileSync(join(out, 'qa', 'report.md'), 'utf8')).toContain(
        '| all | 4 | 0.1250 | 0.5000 | 4 |',
      );
    } finally {
      await server.close();
    }
  });
});

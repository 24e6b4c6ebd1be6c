import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chatCompletionReply, type RecordedRequest, startOpenAiWireServer } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import { startCli } from '../../testing/run-cli-async.js';
import { BEAM_JUDGE_PROMPT, BEAM_READER_PROMPT } from './beam-prompts.js';

const TIER = resolve(import.meta.dirname, 'fixtures', 'tier');
const ANSWER = 'The release moved to April 26; you added SQLite.';
const promptOf = (request: RecordedRequest) =>
  (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';

/**
 * A loopback reader and rubric judge. The reader always answers ANSWER. The judge reads the
 * criterion after the rubric line's last ": " (the whole line without one): 1.0 when the response
 * holds it, 0.5 when it holds its first word only, else 0.0, as BEAM's JSON reply.
 */
function reply(request: RecordedRequest) {
  const prompt = promptOf(request);
  if (prompt.startsWith(BEAM_JUDGE_PROMPT.slice(0, 80))) {
    const item = /RUBRIC CRITERION \(what to check\): (.*)\n/.exec(prompt)?.[1] ?? '';
    const response = (
      /RESPONSE TO EVALUATE: ([\s\S]*?)\n\n## EVALUATION RUBRIC/.exec(prompt)?.[1] ?? ''
    ).toLowerCase();
    const criterion = item.split(': ').at(-1)!.toLowerCase();
    const score = response.includes(criterion)
      ? 1.0
      : response.includes(criterion.split(' ')[0]!)
        ? 0.5
        : 0.0;
    return chatCompletionReply(`{"score": ${score.toFixed(1)}, "reason": "loopback"}`);
  }
  if (prompt.startsWith(BEAM_READER_PROMPT.slice(0, 60))) return chatCompletionReply(ANSWER);
  return chatCompletionReply('unexpected prompt');
}

/** `lme run` on the stand-in tier; BEAM's defaults (convention, reader prompt, judge) unless `flags` say otherwise. */
async function run(id: string, flags: string[], out: string, server: { baseUrl: string }) {
  const result = await startCli(
    [
      'run',
      ...['--dataset', TIER, '--preset', 'bm25', '--granularity', 'turn'],
      ...['--reader-model', 'test-reader', '--judge-model', 'gpt-4.1-mini', ...flags],
      ...['--out', out, '--run-id', id, '--cache-dir', join(out, 'cache')],
    ],
    { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-lme-test-beam' },
  ).done;
  expect(result.stderr).not.toMatch(/Error/);
  expect(result.status).toBe(0);
  return readFileSync(join(out, id, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Sample);
}

describe('BEAM end to end over a loopback OpenAI-compatible server (stand-in tier)', () => {
  it('retrieves at message level, reads with BEAM’s reader prompt and scores each rubric item, with and without half credit', async () => {
    const server = await startOpenAiWireServer({ '/chat/completions': reply });
    const out = mkdtempSync(join(tmpdir(), 'lme-beam-run-'));
    try {
      const partial = await run(
        'partial',
        ['--judge', 'beam-partial', '--convention', 'evidence'],
        out,
        server,
      );
      expect(partial).toHaveLength(8);
      const byId = new Map(partial.map((sample) => [sample.question_id, sample]));
      for (const sample of partial) expect(sample.hypothesis).toBe(ANSWER);
      // "April 12": "april" present, "april 12" not: 0.5. "April 26": 1.
      const extraction = byId.get('beam_c1_information_extraction_1')!;
      expect(extraction.judge?.items?.map((item) => item.score)).toEqual([0.5]);
      expect(extraction.judge?.score).toBe(0.5);
      expect(byId.get('beam_c1_knowledge_update_1')!.judge?.score).toBe(1);
      // Two items: "there is contradictory information" (0) and "SQLite" (1).
      expect(byId.get('beam_c1_contradiction_resolution_1')!.judge?.score).toBe(0.5);
      // Retrieval graded on the gold messages: the knowledge update's three (user and assistant).
      expect(byId.get('beam_c1_knowledge_update_1')!.no_target).toBe(false);
      expect(byId.get('beam_c1_abstention_1')!.no_target).toBe(true);
      expect(Object.keys(extraction.metrics).some((name) => name.startsWith('turn.'))).toBe(true);

      // BEAM's defaults, recorded in config.json: evidence, its reader prompt, the official
      // arithmetic int(score) (the 0.5 counts 0).
      const official = await run('defaults', [], out, server);
      const config = JSON.parse(readFileSync(join(out, 'defaults', 'config.json'), 'utf8')).config;
      expect(config).toMatchObject({ convention: 'evidence', judge: 'beam', readerPrompt: 'beam' });
      expect(config.benchmarkDefaults.benchmark).toBe('beam');
      const officialById = new Map(official.map((sample) => [sample.question_id, sample]));
      expect(officialById.get('beam_c1_information_extraction_1')!.judge?.score).toBe(0);
      expect(officialById.get('beam_c1_knowledge_update_1')!.judge?.score).toBe(1);
      expect(officialById.get('beam_c1_contradiction_resolution_1')!.judge?.score).toBe(0.5);
    } finally {
      await server.close();
    }
  }, 120_000);

  // Issue 52, item 5: the docs' own command warned about the fixture and showed two abstention rows.
  it("runs docs/beam.md's command on the stand-in tier with no warning and one abstention row", async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-beam-docs-'));
    const result = await startCli([
      'run',
      ...['--dataset', TIER, '--preset', 'bm25', '--granularity', 'turn', '--out', out, '--run-id', 'docs'],
    ]).done;
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('warning');
    const rows = result.stdout.split('\n').filter((line) => line.startsWith('| abstention'));
    expect(rows).toEqual([expect.stringMatching(/^\| abstention \(not in overall\) \| 1 \|/)]);
  }, 120_000);

  it('refuses --convention official in one sentence rather than scoring every question 0', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-beam-official-'));
    const result = await startCli([
      'run',
      ...['--dataset', TIER, '--preset', 'bm25', '--convention', 'official', '--out', out, '--run-id', 'x'],
    ]).done;
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      `--convention official: ${TIER} is a beam dataset, which defines gold under evidence only; run it with --convention evidence.`,
    );
  }, 60_000);
});

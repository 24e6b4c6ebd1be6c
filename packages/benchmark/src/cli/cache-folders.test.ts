import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chatCompletionReply,
  mountTmpfs,
  type OpenAiWireServer,
  startOpenAiWireServer,
  unmountTmpfs,
} from '@lme/search-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../testing/run-cli-async.js';

const RUN = ['run', '--dataset', 'sample', '--preset', 'bm25-official', '--limit', '2'];
const QA = ['--reader-model', 'gpt-4o-mini'];

describe('the caches of a run', () => {
  const servers: OpenAiWireServer[] = [];
  const mounted: string[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const dir of mounted.splice(0)) unmountTmpfs(dir);
  });

  it('say how many answers came from the cache another endpoint filled (spend line, config.json)', async () => {
    const first = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('Yes.') });
    const second = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('No.') });
    servers.push(first, second);
    const out = mkdtempSync(join(tmpdir(), 'lme-cache-endpoints-'));
    const cache = join(out, 'cache');
    const run = (server: OpenAiWireServer, runId: string) =>
      startCli([...RUN, ...QA, '--out', out, '--run-id', runId, '--cache-dir', cache], {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.baseUrl,
      }).done;

    const filled = await run(first, 'first');
    expect(filled.status).toBe(0);
    expect(filled.stderr).not.toMatch(/answers from the cache of/);
    const entries = readdirSync(join(cache, 'llm'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(cache, 'llm', name), 'utf8')));
    expect(entries.length).toBe(4); // reader and judge, two questions
    for (const entry of entries) expect(entry.endpoint).toBe(first.baseUrl);

    const served = await run(second, 'second');
    expect(served.status).toBe(0);
    // Only the preflight's GET /models reaches it: every answer came from the first server's cache.
    expect(second.requests.filter((request) => request.path.endsWith('/chat/completions'))).toEqual([]);
    expect(served.stderr).toMatch(new RegExp(`; 4 answers from the cache of ${first.baseUrl}\\n`));
    const config = JSON.parse(readFileSync(join(out, 'second', 'config.json'), 'utf8'));
    expect(config.cache).toEqual({ answers_from_other_endpoints: { [first.baseUrl]: 4 } });
    expect(JSON.parse(readFileSync(join(out, 'first', 'config.json'), 'utf8')).cache).toBeUndefined();
  }, 120_000);

  it('warn once, naming the folder, when the LLM cache cannot be written (a file where its folder goes)', async () => {
    const server = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('Yes.') });
    servers.push(server);
    const out = mkdtempSync(join(tmpdir(), 'lme-cache-readonly-'));
    mkdirSync(join(out, 'cache'));
    writeFileSync(join(out, 'cache', 'llm'), 'not a folder');
    const result = await startCli(
      [...RUN, ...QA, '--out', out, '--run-id', 'r', '--cache-dir', join(out, 'cache')],
      {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.baseUrl,
      },
    ).done;
    expect(result.status).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('LLM cache'));
    expect(warnings).toEqual([
      `lme: warning: The LLM cache folder ${join(out, 'cache', 'llm')} cannot be used (ENOTDIR), so answers are not cached and a later run pays for them again: make it a folder lme can write, point --cache-dir at another folder, or run with --no-cache.`,
    ]);
  }, 120_000);

  it('warn once when the LLM cache folder is read-only', async (context) => {
    const disk = mountTmpfs('ro,size=64k');
    if ('skip' in disk) return context.skip(disk.skip);
    mounted.push(disk.dir);
    const server = await startOpenAiWireServer({ '/chat/completions': () => chatCompletionReply('Yes.') });
    servers.push(server);
    const out = mkdtempSync(join(tmpdir(), 'lme-cache-readonly-'));
    const result = await startCli([...RUN, ...QA, '--out', out, '--run-id', 'r', '--cache-dir', disk.dir], {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: server.baseUrl,
    }).done;
    expect(result.status).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('LLM cache'));
    expect(warnings).toEqual([
      `lme: warning: The LLM cache folder ${join(disk.dir, 'llm')} is read-only (EROFS), so answers are not cached and a later run pays for them again: make it writable, point --cache-dir at another folder, or run with --no-cache.`,
    ]);
  }, 120_000);

  it('stop before the first question, naming the folder, when the embedding cache cannot be written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-cache-embeddings-'));
    mkdirSync(join(out, 'cache'));
    writeFileSync(join(out, 'cache', 'embeddings'), 'a file where the folder goes');
    const args = ['run', '--dataset', 'sample', '--retriever', 'dense', '--embedder', 'local:use-lite'];
    const result = await startCli(
      [...args, '--limit', '2', '--out', out, '--cache-dir', join(out, 'cache')],
      {},
    ).done;
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^lme: The embedding cache folder \S+embeddings\/local_use-lite-\w+ cannot be used \(ENOTDIR\): make it a folder lme can write, point --cache-dir at another folder, or run with --no-cache\.$/m,
    );
    // Stopped in preflight: no question ran, none failed.
    expect(result.stderr).not.toMatch(/questions failed/);
  }, 120_000);
});

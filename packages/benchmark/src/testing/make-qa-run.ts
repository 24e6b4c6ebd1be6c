import { join } from 'node:path';
import {
  chatCompletionReply,
  type RecordedRequest,
  startOpenAiWireServer,
  type WireReply,
} from '@lme/search-core/testing';
import type { RunConfigInput } from '../config/run-config.js';
import { parseRunConfig } from '../config/run-sections.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { REPO_ROOT } from './run-cli.js';

type Message = { role: string; content: string };

/** The question a reader or judge prompt is about (both templates hold `Question: <text>`). */
function questionOf(request: RecordedRequest): string {
  const prompt = (request.body as { messages: Message[] }).messages[0]?.content ?? '';
  return /Question: ?(.*)\n/.exec(prompt)?.[1]?.trim() ?? '';
}

/** The official judge asks for a yes/no verdict in at most 10 tokens; the reader gets 800. */
const isJudge = (request: RecordedRequest) => (request.body as { max_tokens?: number }).max_tokens === 10;

/**
 * A BM25 run with QA over the committed 22-question sample, in-process, against a loopback reader
 * and judge speaking the OpenAI wire format: the reader answers `answer: <question>`, the judge
 * says "yes" when `correct(question)` holds, else "no". Returns the run folder.
 */
export async function makeSampleQaRun(
  out: string,
  runId: string,
  correct: (question: string) => boolean,
  config: RunConfigInput = {},
): Promise<string> {
  const server = await startOpenAiWireServer({
    '/chat/completions': (request): WireReply =>
      chatCompletionReply(
        isJudge(request) ? (correct(questionOf(request)) ? 'yes' : 'no') : `answer: ${questionOf(request)}`,
      ),
  });
  try {
    const { dir } = await runBenchmark(
      parseRunConfig({
        dataset: 'sample',
        dataDir: join(REPO_ROOT, 'datasets'),
        out,
        runId,
        readerModel: 'gpt-4o-mini',
        judgeModel: 'gpt-4o-mini',
        baseUrl: server.baseUrl,
        cache: false,
        ...config,
      }),
      { argv: ['test'], environment: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseUrl } },
    );
    return dir;
  } finally {
    await server.close();
  }
}

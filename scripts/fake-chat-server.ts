/**
 * A loopback OpenAI-compatible chat server that plays reader and judge, to try QA runs, compare and
 * gate with no model and no network. The reader answers `answer: <question>`; the judge (requests
 * with max_tokens 10, as the official judge sends) says "yes" for a fixed share of questions, chosen
 * by a hash of the question text and the seed, else "no". A judge prompt asking for a JSON verdict
 * `{"label": "correct"|…}` (LoCoMo-Plus's judge) gets `correct` for that share of prompts (hashed
 * whole), `partial` for half the rest and `wrong` for the others.
 *
 *   pnpm tsx --conditions=source scripts/fake-chat-server.ts [--correct 0.5] [--seed a]
 *
 * Prints its base URL (for --base-url) and serves until interrupted.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  chatCompletionReply,
  type RecordedRequest,
  startOpenAiWireServer,
} from '../packages/search-core/src/testing/index.js';

const { values } = parseArgs({
  options: { correct: { type: 'string', default: '0.5' }, seed: { type: 'string', default: 'a' } },
});
const share = Number(values.correct);
if (!(share >= 0 && share <= 1))
  throw new Error(`--correct must be a number from 0 to 1, got "${values.correct}".`);

const questionOf = (request: RecordedRequest) => {
  const prompt = (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
  return /Question: ?(.*)(?:\n|$)/.exec(prompt)?.[1]?.trim() ?? '';
};

/** A stable number in [0, 1) for a question under the seed. */
const draw = (question: string) =>
  createHash('sha256').update(`${values.seed}\u0000${question}`).digest().readUInt32BE(0) / 2 ** 32;

const LABEL_VERDICT = '{"label": "correct"|';

const server = await startOpenAiWireServer({
  '/chat/completions': (request) => {
    const prompt = (request.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
    if (prompt.includes(LABEL_VERDICT)) {
      const x = draw(prompt);
      const label = x < share ? 'correct' : x < (1 + share) / 2 ? 'partial' : 'wrong';
      return chatCompletionReply(JSON.stringify({ label, reason: 'fake judge' }));
    }
    const question = questionOf(request);
    const judging = (request.body as { max_tokens?: number }).max_tokens === 10;
    return chatCompletionReply(judging ? (draw(question) < share ? 'yes' : 'no') : `answer: ${question}`);
  },
});
process.stdout.write(`${server.baseUrl}\n`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));

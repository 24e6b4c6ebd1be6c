/**
 * A loopback memory system that answers questions itself, and a loopback judge, for trying
 * `lme run --answers provider` end to end without any model or key:
 *
 *   pnpm tsx --conditions=source scripts/answering-memory-server.ts [--dataset <file.json[.gz]>]
 *
 * The memory server speaks docs/provider-protocol.md: it ranks sessions by shared words and
 * answers from a script over the dataset's questions, by position (two of every four right, one
 * wrong, one with nothing: an empty `answer`, or none), reporting its context, token usage (a cost
 * on every other answer) and latency. The judge speaks the OpenAI chat wire format and says "yes"
 * when the response contains the gold answer (packages/benchmark/src/testing/containment-judge.ts).
 * Both listen on 127.0.0.1 (free ports) until Ctrl-C; their URLs are printed on stdout as
 * `provider-url <url>` and `judge-base-url <url>`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import {
  type ScriptedQuestion,
  scriptByPosition,
  startAnsweringMemoryServer,
} from '../packages/benchmark/src/testing/answering-memory-server.js';
import { containmentJudgeHandler } from '../packages/benchmark/src/testing/containment-judge.js';
import { startOpenAiWireServer } from '../packages/search-core/src/testing/openai-wire-server.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'datasets/sample/longmemeval_s_sample.json.gz' },
    port: { type: 'string', default: '0' },
  },
});
const raw = readFileSync(values.dataset);
const questions = JSON.parse(
  (values.dataset.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'),
) as ScriptedQuestion[];
const memory = await startAnsweringMemoryServer({
  script: scriptByPosition(questions),
  port: Number(values.port),
});
const judge = await startOpenAiWireServer({ '/chat/completions': containmentJudgeHandler });
process.stdout.write(`provider-url ${memory.url}\njudge-base-url ${judge.baseUrl}\n`);
process.on('SIGINT', () => {
  void Promise.all([memory.close(), judge.close()]).then(() => process.exit(0));
});

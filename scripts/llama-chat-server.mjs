// A loopback OpenAI-compatible chat server around a local GGUF model, for trying lme's reader and
// judge with a real (small) model on a machine without API access. Not used by lme itself.
//
//   npm install --prefix <scratch> node-llama-cpp
//   NODE_LLAMA_CPP=<scratch>/node_modules/node-llama-cpp/dist/index.js \
//     node scripts/llama-chat-server.mjs --model <file.gguf> [--port 8089] [--context 8192]
//
// POST /v1/chat/completions answers one request at a time (the model holds one context); usage
// counts the tokens the model evaluated and generated. GET /v1/models lists the one model.
import { createServer } from 'node:http';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    port: { type: 'string', default: '8089' },
    context: { type: 'string', default: '8192' },
    threads: { type: 'string', default: '2' },
  },
});
if (!values.model) throw new Error('--model <file.gguf> is required');
const { getLlama, LlamaChatSession } = await import(process.env.NODE_LLAMA_CPP ?? 'node-llama-cpp');
const llama = await getLlama({ gpu: false, build: 'never' });
const model = await llama.loadModel({ modelPath: values.model });
const context = await model.createContext({
  contextSize: Number(values.context),
  threads: Number(values.threads),
});
const modelName = basename(values.model);

let queue = Promise.resolve();
const serialized = (work) => {
  const next = queue.then(work, work);
  queue = next.catch(() => {});
  return next;
};

async function complete(body, signal) {
  const sequence = context.getSequence();
  try {
    const session = new LlamaChatSession({ contextSequence: sequence });
    const messages = body.messages ?? [];
    const last = messages.at(-1);
    const history = messages
      .slice(0, -1)
      .map((m) =>
        m.role === 'system'
          ? { type: 'system', text: String(m.content) }
          : m.role === 'assistant'
            ? { type: 'model', response: [String(m.content)] }
            : { type: 'user', text: String(m.content) },
      );
    session.setChatHistory([...history]);
    const before = sequence.tokenMeter.getState();
    const text = await session.prompt(String(last?.content ?? ''), {
      maxTokens: body.max_tokens ?? body.max_completion_tokens ?? 256,
      temperature: body.temperature ?? 0,
      seed: body.seed ?? 0,
      signal,
      stopOnAbortSignal: true,
    });
    const used = sequence.tokenMeter.diff(before);
    return {
      id: `chatcmpl-local-${Date.now()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? modelName,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: used.usedInputTokens,
        completion_tokens: used.usedOutputTokens,
        total_tokens: used.usedInputTokens + used.usedOutputTokens,
      },
    };
  } finally {
    sequence.dispose();
  }
}

function reply(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

createServer(async (req, res) => {
  try {
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      return reply(res, 200, { object: 'list', data: [{ id: modelName, object: 'model' }] });
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return reply(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const started = Date.now();
    const aborter = new AbortController();
    res.on('close', () => aborter.abort());
    const result = await serialized(() =>
      aborter.signal.aborted ? Promise.reject(new Error('client left')) : complete(body, aborter.signal),
    );
    process.stderr.write(
      `${result.usage.prompt_tokens} in, ${result.usage.completion_tokens} out, ${Date.now() - started} ms\n`,
    );
    reply(res, 200, result);
  } catch (error) {
    reply(res, 500, { error: { message: String(error?.message ?? error) } });
  }
}).listen(Number(values.port), '127.0.0.1', () => {
  process.stderr.write(`${modelName} on http://127.0.0.1:${values.port}/v1\n`);
});

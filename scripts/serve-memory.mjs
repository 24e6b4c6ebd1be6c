// Peak memory of `lme serve --max-memory-mb 64` under six concurrent 260 MB request bodies
// (issue 26, item 5), on loopback. Usage: node scripts/serve-memory.mjs [repo-dir] [--chunked]
// Prints each request's status and first words, the server's peak RSS (VmHWM) and its RSS a few
// seconds after the requests end. Every loop is bounded: 260 MB per body, 120 s overall.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';

const repo = resolve(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : '.');
const chunked = process.argv.includes('--chunked');
const BODY = 260 * 1024 * 1024;
const CHUNK = Buffer.alloc(1 << 20, ' ');
const deadline = setTimeout(() => {
  console.error('gave up after 120 s');
  process.exit(1);
}, 120_000);

const server = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--conditions=source',
    'packages/benchmark/src/cli/main.ts',
    'serve',
    '--port',
    '0',
    '--max-memory-mb',
    '64',
  ],
  { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] },
);
const url = await new Promise((found, fail) => {
  let text = '';
  server.stderr.on('data', (chunk) => {
    text += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(text);
    if (match) found(match[1]);
  });
  server.on('exit', () => fail(new Error(`lme serve ended: ${text}`)));
});
const memory = (field) => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
};
const before = memory('VmRSS');

/** One POST of 260 MB (Content-Length declared unless --chunked), written at the pace the server reads. */
function post(index) {
  return new Promise((done) => {
    const started = Date.now();
    const headers = { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': BODY }) };
    const outgoing = request(`${url}/v1/ingest`, { method: 'POST', headers });
    let settled = false;
    const finish = (status, text) => {
      if (settled) return;
      settled = true;
      done(`request ${index}: ${status} ${text.slice(0, 110)} (${Date.now() - started} ms)`);
    };
    outgoing.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => finish(response.statusCode, text));
    });
    outgoing.on('error', (error) => finish('error', error.message));
    let sent = 0;
    const pump = () => {
      while (sent < BODY) {
        sent += CHUNK.length;
        if (!outgoing.write(CHUNK)) return void outgoing.once('drain', pump);
      }
      outgoing.end();
    };
    outgoing.write('{"namespace": "n", "sessions": [], "pad": "');
    pump();
  });
}

const results = await Promise.all(Array.from({ length: 6 }, (_, index) => post(index + 1)));
for (const line of results) console.log(line);
await new Promise((wait) => setTimeout(wait, 3000));
console.log(
  `lme serve RSS: ${before.toFixed(0)} MB at start, peak ${memory('VmHWM').toFixed(0)} MB, ${memory('VmRSS').toFixed(0)} MB 3 s after${chunked ? ' (chunked bodies)' : ''}`,
);
server.kill('SIGINT');
clearTimeout(deadline);

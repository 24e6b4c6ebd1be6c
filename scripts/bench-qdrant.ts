/**
 * Per-search latency of lme's Qdrant transport against the @qdrant/js-client-rest client it
 * replaced (Node's fetch through an undici Agent) and a bare `http.request`, against the loopback
 * Qdrant stand-in (packages/search-core/src/testing/qdrant-wire-server.ts: Qdrant's REST shapes,
 * brute-force cosine in JS), and with `--run` the wall time of `lme run --dataset sample` with the
 * memory store and with the qdrant store (alternated, warm embedding cache). With QDRANT_URL set
 * (and QDRANT_API_KEY if needed) both parts use that server instead of the stand-in:
 *
 *   pnpm tsx --conditions=source scripts/bench-qdrant.ts [--searches 200] [--points 500] [--run] [--runs 2] [--preset hybrid]
 *
 * With --run it also checks that every Qdrant run ranks exactly as the first memory run (same hits
 * in the same order), prints the mean index and retrieve time per question, and, against a real
 * server, that server's own requests and seconds per endpoint (its /metrics). With QDRANT_GRPC_URL
 * set as well (or `--grpc` against the stand-in), each round adds a qdrant run whose upserts go
 * over gRPC, beside the REST-only one.
 *
 * What a stand-in can show: the client-side cost of each call (transport, JSON, connection reuse)
 * and a run's time with a server that answers in well under a millisecond. It cannot show a real
 * Qdrant's upsert and search time or its TCP behaviour (actix's gzip replies, written after their
 * headers and held by Nagle, cost `fetch` ~44 ms); docs/qdrant.md says which figure comes from where.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { readSamples } from '../packages/benchmark/src/analysis/read-run.js';
import type { Sample } from '../packages/benchmark/src/results/sample.js';
import { startFakeQdrant } from '../packages/search-core/src/testing/qdrant-wire-server.js';
import { createQdrantVectorIndex } from '../packages/search-core/src/vector-index/qdrant-vector-index.js';

const { values } = parseArgs({
  options: {
    searches: { type: 'string', default: '200' },
    points: { type: 'string', default: '500' },
    dimensions: { type: 'string', default: '384' },
    run: { type: 'boolean', default: false },
    runs: { type: 'string', default: '2' },
    preset: { type: 'string', default: 'hybrid' },
    /** Another checkout to time as well (e.g. a `git archive` of the commit before, node_modules linked). */
    'compare-with': { type: 'string' },
    /** With the stand-in: serve gRPC too, and time runs with gRPC upserts. */
    grpc: { type: 'boolean', default: false },
  },
});
const searches = Number(values.searches);
const points = Number(values.points);
const dimensions = Number(values.dimensions);
const root = resolve(import.meta.dirname, '..');

const require = createRequire(join(root, 'packages/search-core/package.json'));
const { QdrantClient: Client } = require('@qdrant/js-client-rest') as { QdrantClient: typeof QdrantClient };

// QDRANT_URL (and QDRANT_API_KEY) set: a real server; else the loopback stand-in.
const fake = process.env.QDRANT_URL ? undefined : await startFakeQdrant({ grpc: values.grpc });
const url = process.env.QDRANT_URL ?? fake!.url;
const grpcUrl = fake ? fake.grpcUrl : process.env.QDRANT_GRPC_URL;
const apiKey = process.env.QDRANT_API_KEY;
const collection = `lme-bench-${process.pid}`;
const random = () => Float32Array.from({ length: dimensions }, () => Math.random() - 0.5);
const index = createQdrantVectorIndex({
  url,
  ...(apiKey ? { apiKey } : {}),
  collection,
  dimensions,
  filterKeys: ['namespace'],
});
await index.upsert({
  records: Array.from({ length: points }, (_, n) => ({
    id: `q1:${n}`,
    vector: random(),
    payload: { namespace: n % 2 === 0 ? 'q1' : 'q2', position: n },
  })),
});
const query = () => ({
  query: Array.from(random()),
  limit: points,
  with_payload: true,
  filter: { must: [{ key: 'namespace', match: { value: 'q1' } }] },
});

const old = new Client({ url, headers: apiKey ? { 'api-key': apiKey } : {}, checkCompatibility: false });
const agent = new Agent({ keepAlive: true });
const methods: Record<string, () => Promise<unknown>> = {
  '@qdrant/js-client-rest 1.19 (fetch)': () => old.query(collection, query()),
  'lme transport (node:http, kept alive)': () =>
    index.search({ vector: random(), limit: points, filter: { namespace: 'q1' } }),
  'bare http.request (reference)': () =>
    new Promise((done, fail) => {
      const body = JSON.stringify(query());
      const outgoing = httpRequest(`${url}/collections/${collection}/points/query`, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(apiKey ? { 'api-key': apiKey } : {}),
        },
      });
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      });
      outgoing.end(body);
    }),
};

// Rounds alternate the methods, so a busy machine slows each of them alike.
const timings: Record<string, number[]> = Object.fromEntries(Object.keys(methods).map((name) => [name, []]));
for (const search of Object.values(methods)) for (let n = 0; n < 10; n++) await search();
const rounds = 10;
for (let round = 0; round < rounds; round++) {
  for (const [name, search] of Object.entries(methods)) {
    for (let n = 0; n < Math.ceil(searches / rounds); n++) {
      const started = performance.now();
      await search();
      timings[name]!.push(performance.now() - started);
    }
  }
}
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log(
  `per search, ${points} points of ${dimensions} dimensions (${points / 2} returned), ${timings[Object.keys(methods)[0]!]!.length} searches each, Node ${process.version}:`,
);
for (const [name, list] of Object.entries(timings)) {
  const sorted = [...list].sort((a, b) => a - b);
  const mean = list.reduce((sum, value) => sum + value, 0) / list.length;
  console.log(
    `  ${name.padEnd(40)} median ${quantile(sorted, 0.5).toFixed(2)} ms  p95 ${quantile(sorted, 0.95).toFixed(2)} ms  mean ${mean.toFixed(2)} ms`,
  );
}
await index.drop();
agent.destroy();

if (values.run) {
  const out = mkdtempSync(join(tmpdir(), 'lme-bench-qdrant-'));
  const wall: Record<string, number[]> = { memory: [], qdrant: [] };
  const cpu: Record<string, number[]> = {};
  const runIds: Record<string, string[]> = {};
  /** Per checkout, requests and server seconds per endpoint over its qdrant runs (a real server's /metrics). */
  const server: Record<string, Record<string, { count: number; seconds: number }>> = {};
  const grpcLabel = 'qdrant, gRPC upserts';
  const checkouts: [string, string][] = [
    ['memory', root],
    ['qdrant', root],
    ...(grpcUrl ? [[grpcLabel, root] as [string, string]] : []),
    ...(values['compare-with']
      ? [['qdrant (other checkout)', resolve(values['compare-with'])] as [string, string]]
      : []),
  ];
  for (let run = 0; run < Number(values.runs); run++) {
    for (const [label, cwd] of checkouts) {
      const store = label === 'memory' ? 'memory' : 'qdrant';
      const { QDRANT_GRPC_URL: _unset, ...environment } = process.env;
      const runId = `${store}-${run}-${checkouts.findIndex(([name]) => name === label)}`;
      runIds[label] = [...(runIds[label] ?? []), runId];
      const before = store === 'qdrant' && !fake ? await serverMetrics() : undefined;
      const started = performance.now();
      // A child process, awaited: the stand-in keeps answering in this one. GNU time reports the
      // CPU seconds lme itself spent (the stand-in's own work is in this process, not counted).
      const { stderr } = await promisify(execFile)(
        '/usr/bin/time',
        [
          '-f',
          'lme-cpu %U %S',
          'node',
          '--import',
          'tsx',
          '--conditions=source',
          'packages/benchmark/src/cli/main.ts',
          'run',
          '--dataset',
          'sample',
          '--preset',
          values.preset!,
          '--vector-store',
          store,
          '--out',
          out,
          '--run-id',
          runId,
          '-q',
        ],
        // One embedding cache for every checkout (the default .lme-cache is per folder).
        {
          cwd,
          env: {
            LME_CACHE_DIR: join(root, '.lme-cache'),
            ...environment,
            QDRANT_URL: url,
            ...(label === grpcLabel ? { QDRANT_GRPC_URL: grpcUrl } : {}),
          },
          encoding: 'utf8',
          maxBuffer: 64 << 20,
        },
      );
      const seconds = (performance.now() - started) / 1000;
      wall[label] = [...(wall[label] ?? []), seconds];
      const cpuTimes = /lme-cpu ([\d.]+) ([\d.]+)/.exec(stderr);
      if (cpuTimes) cpu[label] = [...(cpu[label] ?? []), Number(cpuTimes[1]) + Number(cpuTimes[2])];
      if (before) {
        for (const [endpoint, after] of Object.entries(await serverMetrics())) {
          const earlier = before[endpoint] ?? { count: 0, seconds: 0 };
          const ofLabel = server[label] ?? {};
          const total = ofLabel[endpoint] ?? { count: 0, seconds: 0 };
          total.count += after.count - earlier.count;
          total.seconds += after.seconds - earlier.seconds;
          ofLabel[endpoint] = total;
          server[label] = ofLabel;
        }
      }
    }
  }
  const samples = Object.fromEntries(
    Object.entries(runIds).map(([label, ids]) => [
      label,
      ids.map((runId) => readSamples(join(out, runId, 'samples.jsonl')).samples),
    ]),
  );
  rmSync(out, { recursive: true, force: true });
  const median = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  console.log(
    `lme run --dataset sample --preset ${values.preset}, wall seconds per run (alternated; qdrant: ${fake ? 'the loopback stand-in' : url}):`,
  );
  for (const [label, list] of Object.entries(wall)) {
    console.log(
      `  ${label.padEnd(24)} ${list.map((s) => s.toFixed(1)).join(', ')}  median ${median(list).toFixed(1)} s` +
        (label === 'memory' ? '' : `, ${(median(list) / median(wall.memory!)).toFixed(2)}x memory`),
    );
  }
  console.log('CPU seconds of the lme process (user + sys; the server not counted):');
  for (const [label, list] of Object.entries(cpu)) {
    console.log(
      `  ${label.padEnd(24)} ${list.map((s) => s.toFixed(1)).join(', ')}  median ${median(list).toFixed(1)} s` +
        (label === 'memory' ? '' : `, ${(median(list) / median(cpu.memory!)).toFixed(2)}x memory`),
    );
  }
  console.log('per question, mean ms (first run of each; samples.jsonl latency_ms):');
  for (const [label, runs] of Object.entries(samples)) {
    const first = runs[0]!;
    const mean = (key: 'index' | 'retrieve') =>
      first.reduce((sum, sample) => sum + sample.latency_ms[key], 0) / first.length;
    console.log(
      `  ${label.padEnd(24)} index ${mean('index').toFixed(1)}  retrieve ${mean('retrieve').toFixed(1)}  (${first.length} questions)`,
    );
  }
  // A Qdrant run must rank exactly as the memory store does: same hits in the same order.
  const reference = samples.memory![0]!;
  for (const [label, runs] of Object.entries(samples)) {
    if (label === 'memory') continue;
    for (const [number, run] of runs.entries()) {
      const differ = compareHits(reference, run);
      console.log(
        `rankings, ${label} run ${number + 1} vs memory run 1: ${differ.questions === 0 ? 'equal' : `${differ.questions} questions differ`} (${run.length} questions, ${differ.hits} hits, scores within ${differ.maxScoreDifference.toExponential(1)})`,
      );
    }
  }
  for (const [label, endpoints] of Object.entries(server)) {
    const runs = runIds[label]!.length;
    console.log(`server side, ${label}, per run (${url}/metrics, responses, mean of ${runs} runs):`);
    for (const [endpoint, { count, seconds }] of Object.entries(endpoints).sort(
      (a, b) => b[1].seconds - a[1].seconds,
    )) {
      if (count === 0) continue;
      console.log(
        `  ${endpoint.padEnd(52)} ${(count / runs).toFixed(0).padStart(5)} requests  ${((seconds / runs) * 1000).toFixed(0).padStart(6)} ms  (${((seconds / count) * 1000).toFixed(2)} ms each)`,
      );
    }
  }
}
await fake?.close();

/** Questions whose hits (ids in rank order) differ, and the largest score difference of the rest. */
function compareHits(reference: readonly Sample[], run: readonly Sample[]) {
  const byId = new Map(reference.map((sample) => [sample.question_id, sample]));
  let questions = 0;
  let hits = 0;
  let maxScoreDifference = 0;
  for (const sample of run) {
    const expected = byId.get(sample.question_id)?.hits ?? [];
    const actual = sample.hits;
    hits += actual.length;
    if (
      expected.length !== actual.length ||
      expected.some((hit, index) => hit.id !== actual[index]!.id || hit.rank !== actual[index]!.rank)
    ) {
      questions += 1;
      continue;
    }
    for (const [index, hit] of expected.entries())
      maxScoreDifference = Math.max(maxScoreDifference, Math.abs(hit.score - actual[index]!.score));
  }
  if (run.length !== reference.length) questions += Math.abs(run.length - reference.length);
  return { questions, hits, maxScoreDifference };
}

/**
 * Qdrant's own count and summed duration of REST and gRPC responses per endpoint (`GET /metrics`,
 * `rest_responses_duration_seconds` and `grpc_…` histograms): what the server spent, apart from the client.
 */
async function serverMetrics(): Promise<Record<string, { count: number; seconds: number }>> {
  const response = await fetch(`${url}/metrics`, { headers: apiKey ? { 'api-key': apiKey } : {} });
  const text = await response.text();
  const endpoints: Record<string, { count: number; seconds: number }> = {};
  for (const line of text.split('\n')) {
    const match = /^(rest|grpc)_responses_duration_seconds_(sum|count)\{(.*)\} (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...match[3]!.matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    const key =
      match[1] === 'rest'
        ? `${labels['method']} ${labels['endpoint']} ${labels['status']}`
        : `gRPC ${labels['endpoint']}`;
    const entry = endpoints[key] ?? { count: 0, seconds: 0 };
    if (match[2] === 'sum') entry.seconds += Number(match[4]);
    else entry.count += Number(match[4]);
    endpoints[key] = entry;
  }
  return endpoints;
}

import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import { loadPreset } from '../config/presets.js';
import type { RunConfigInput } from '../config/run-config.js';
import { parseRunConfig } from '../config/run-sections.js';
import { benchmarkLayer, benchmarkOfDataset } from '../run/benchmark-defaults.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { REPO_ROOT } from './run-cli.js';

const DATA_DIR = join(REPO_ROOT, 'datasets');

/** Another benchmark's dataset to run: BM25 as is, ranking turns, with the words tokenizer, stopped part way, and with errata when named. */
export type OtherDataset = { id: string; dataset: string; errata?: string; stopAfter: number };

/** Labels a page must show as text, never run. */
export const HOSTILE_LABELS = [
  `<img src=x onerror="alert('label')">`,
  `</script><script>alert("script")</script>`,
  `" onmouseover="alert(1)" x="`,
];

type Planned = { id?: string; config: RunConfigInput; stopAfter?: number };

/** A provider that is up (its health check passes) and refuses every question: a failed run. */
async function refusingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    const healthy = incoming.url === '/v1/health';
    outgoing.writeHead(healthy ? 200 : 400, { 'content-type': 'application/json' });
    outgoing.end(
      healthy
        ? '{"status": "ok", "name": "refuser", "version": "0.9"}'
        : '{"error": {"message": "storage is down"}}',
    );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function preset(name: string, extra: RunConfigInput = {}): RunConfigInput {
  return { ...(loadPreset(name).config as RunConfigInput), preset: name, ...extra };
}

/** The committed sample with its last question left out, under the same file name: a different checksum. */
function alteredSample(dir: string): string {
  const sample = resolveDatasetPath('sample', DATA_DIR);
  const records = JSON.parse(gunzipSync(readFileSync(sample)).toString('utf8')) as unknown[];
  mkdirSync(join(dir, 'altered'), { recursive: true });
  const path = join(dir, 'altered', basename(sample));
  writeFileSync(path, gzipSync(JSON.stringify(records.slice(0, -1))));
  return path;
}

function plan(work: string, others: readonly OtherDataset[]): Planned[] {
  const sample = resolveDatasetPath('sample', DATA_DIR);
  const altered = alteredSample(work);
  const onSample: Planned[] = [
    { config: preset('bm25-official', { dataset: 'sample' }) },
    { config: preset('bm25', { dataset: 'sample' }) },
    { id: 'sample-words', config: { dataset: sample, tokenizer: 'words', label: 'words tokenizer' } },
    ...[0.9, 1.5, 2].map((k1) => ({
      id: `sample-k1-${k1}`,
      config: { dataset: sample, bm25K1: k1, label: `k1 ${k1}` },
    })),
    { id: 'sample-turn', config: { dataset: sample, granularity: 'turn' } },
    { id: 'sample-exclusion-b', config: { dataset: sample, exclusion: 'B' } },
    { id: 'sample-evidence', config: { dataset: sample, convention: 'evidence' } },
    { id: 'sample-evidence-turn', config: { dataset: sample, convention: 'evidence', granularity: 'turn' } },
    ...HOSTILE_LABELS.map((label, index) => ({
      id: `sample-hostile-${index}`,
      config: { dataset: sample, label },
    })),
    { id: 'sample-stopped', config: { dataset: sample, label: 'stopped after 5' }, stopAfter: 5 },
    { id: 'sample-altered', config: { dataset: altered } },
    { id: 'sample-altered-words', config: { dataset: altered, tokenizer: 'words' } },
  ];
  const onOthers = others.flatMap(({ id, dataset, errata, stopAfter }): Planned[] => [
    { config: { ...preset('bm25'), dataset } },
    { id: `${id}-turn`, config: { dataset, granularity: 'turn' } },
    { id: `${id}-words`, config: { dataset, tokenizer: 'words' } },
    ...(errata === undefined ? [] : [{ id: `${id}-errata`, config: { dataset, errata } }]),
    { id: `${id}-stopped`, config: { dataset }, stopAfter },
  ]);
  return [...onSample, ...onOthers];
}

/**
 * A results folder of real runs, as a user's fills: the committed LongMemEval sample (presets,
 * settings, conventions, hostile labels, an altered copy with another checksum) and each of
 * `others` (another benchmark's dataset: BM25, turns, words, errata, stopped), complete runs, runs
 * stopped part way (partial), a run whose provider refused every question (failed), the committed
 * baselines written by earlier releases and the run folders of `previous`. BM25 only: no model, no
 * network beyond loopback. Returns the results folder.
 */
export async function makeRunsFolder(
  options: { root?: string; others?: readonly OtherDataset[]; previous?: readonly string[] } = {},
): Promise<string> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'lme-runs-'));
  const out = join(root, 'results');
  const work = join(root, 'work');
  mkdirSync(out, { recursive: true });
  for (const planned of plan(work, options.others ?? [])) {
    const controller = new AbortController();
    const higher: RunConfigInput = {
      dataDir: DATA_DIR,
      out,
      cacheDir: join(work, 'cache'),
      ...(planned.id === undefined ? {} : { runId: planned.id }),
      ...planned.config,
    };
    // As the command line resolves it: the dataset's benchmark sets its published convention.
    const benchmark = await benchmarkOfDataset(resolveDatasetPath(String(planned.config.dataset), DATA_DIR));
    const config = parseRunConfig({ ...(benchmark ? benchmarkLayer(benchmark, higher) : {}), ...higher });
    const hooks = {
      onQuestionEnd: ({ done }: { done: number }) => {
        if (planned.stopAfter !== undefined && done >= planned.stopAfter) controller.abort();
      },
    };
    await runBenchmark(config, { argv: ['test'], hooks, signal: controller.signal }).catch((error: Error) => {
      if (planned.stopAfter === undefined) throw error;
    });
  }
  const server = await refusingServer();
  try {
    const config = parseRunConfig({
      dataset: resolveDatasetPath('sample', DATA_DIR),
      out,
      runId: 'sample-refused',
      provider: 'http',
      providerUrl: server.url,
      label: 'provider down',
    });
    await runBenchmark(config, { argv: ['test'] }).catch(() => undefined);
  } finally {
    await server.close();
  }
  cpSync(join(REPO_ROOT, 'results/baselines'), join(out, 'baselines'), { recursive: true });
  for (const previous of options.previous ?? []) {
    for (const name of readdirSync(previous))
      cpSync(join(previous, name), join(out, 'previous', name), { recursive: true });
  }
  return out;
}

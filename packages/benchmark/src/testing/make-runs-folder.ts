import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import { parseRunConfig } from '../config/parse-run-config.js';
import { loadPreset } from '../config/presets.js';
import type { RunConfigInput } from '../config/run-config.js';
import { benchmarkLayer, benchmarkOfDataset } from '../run/benchmark-defaults.js';
import { runBenchmark } from '../run/run-benchmark.js';
import { REPO_ROOT } from './run-cli.js';

/** The LoCoMo conversation the shared datasets hold (conv-26); runs on it are skipped when it is absent. */
export const LOCOMO_CONV26 = '/work/shared/datasets/locomo/locomo10-conv26.json';

const SAMPLE = join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz');
const BEAM_TIERS = join(REPO_ROOT, 'packages/benchmark/src/benchmarks/beam/fixtures/tier');
const LOCOMO_PLUS = join(REPO_ROOT, 'datasets/fixtures/locomo-plus-mini/locomo_plus.json');

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

/** The sample with its last question left out, under the same file name: a different checksum. */
function alteredSample(dir: string): string {
  const records = JSON.parse(gunzipSync(readFileSync(SAMPLE)).toString('utf8')) as unknown[];
  mkdirSync(join(dir, 'altered'), { recursive: true });
  const path = join(dir, 'altered', 'longmemeval_s_sample.json.gz');
  writeFileSync(path, gzipSync(JSON.stringify(records.slice(0, -1))));
  return path;
}

function plan(work: string, locomo: boolean): Planned[] {
  const sample: Planned[] = [
    { config: preset('bm25-official', { dataset: 'sample' }) },
    { config: preset('bm25', { dataset: 'sample' }) },
    { id: 'sample-words', config: { dataset: SAMPLE, tokenizer: 'words', label: 'words tokenizer' } },
    ...[0.9, 1.5, 2].map((k1) => ({
      id: `sample-k1-${k1}`,
      config: { dataset: SAMPLE, bm25K1: k1, label: `k1 ${k1}` },
    })),
    { id: 'sample-turn', config: { dataset: SAMPLE, granularity: 'turn' } },
    { id: 'sample-exclusion-b', config: { dataset: SAMPLE, exclusion: 'B' } },
    { id: 'sample-evidence', config: { dataset: SAMPLE, convention: 'evidence' } },
    { id: 'sample-evidence-turn', config: { dataset: SAMPLE, convention: 'evidence', granularity: 'turn' } },
    ...HOSTILE_LABELS.map((label, index) => ({
      id: `sample-hostile-${index}`,
      config: { dataset: SAMPLE, label },
    })),
    { id: 'sample-stopped', config: { dataset: SAMPLE, label: 'stopped after 5' }, stopAfter: 5 },
    { id: 'sample-altered', config: { dataset: alteredSample(work) } },
    { id: 'sample-altered-words', config: { dataset: alteredSample(work), tokenizer: 'words' } },
  ];
  const beam: Planned[] = ['1', '2'].flatMap((tier) => [
    { id: `beam-tier-${tier}`, config: { dataset: join(BEAM_TIERS, tier) } },
    { id: `beam-tier-${tier}-turn`, config: { dataset: join(BEAM_TIERS, tier), granularity: 'turn' } },
  ]);
  const plus: Planned[] = [
    { id: 'plus-bm25', config: { dataset: LOCOMO_PLUS } },
    { id: 'plus-words', config: { dataset: LOCOMO_PLUS, tokenizer: 'words' } },
    { id: 'plus-stopped', config: { dataset: LOCOMO_PLUS }, stopAfter: 3 },
  ];
  const conv26: Planned[] = locomo
    ? [
        { config: { ...preset('bm25'), dataset: LOCOMO_CONV26 } },
        { id: 'locomo-turn', config: { dataset: LOCOMO_CONV26, granularity: 'turn' } },
        { id: 'locomo-words', config: { dataset: LOCOMO_CONV26, tokenizer: 'words' } },
        { id: 'locomo-errata', config: { dataset: LOCOMO_CONV26, errata: 'locomo10-conv26' } },
        { id: 'locomo-stopped', config: { dataset: LOCOMO_CONV26 }, stopAfter: 20 },
      ]
    : [];
  return [...sample, ...beam, ...plus, ...conv26];
}

/**
 * A results folder of real runs, as a user's fills: four benchmarks (the LongMemEval sample, BEAM's
 * tier fixtures, the LoCoMo-Plus fixture, LoCoMo conv-26 when the shared file is there), complete
 * runs, runs stopped part way (partial), a run whose provider refused every question (failed), runs
 * on an altered copy of the sample (another checksum), errata applied, hostile labels, and the
 * committed baselines written by earlier releases. BM25 only: no model, no network. Returns the folder.
 */
export async function makeRunsFolder(
  options: { root?: string; previous?: readonly string[] } = {},
): Promise<string> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'lme-runs-'));
  const out = join(root, 'results');
  const work = join(root, 'work');
  mkdirSync(out, { recursive: true });
  const locomo = (() => {
    try {
      readFileSync(LOCOMO_CONV26, { flag: 'r' }).subarray(0, 1);
      return true;
    } catch {
      return false;
    }
  })();
  for (const planned of plan(work, locomo)) {
    const controller = new AbortController();
    const higher: RunConfigInput = {
      dataDir: join(REPO_ROOT, 'datasets'),
      out,
      cacheDir: join(work, 'cache'),
      ...(planned.id === undefined ? {} : { runId: planned.id }),
      ...planned.config,
    };
    // As the command line resolves it: the dataset's benchmark sets its published convention.
    const benchmark = await benchmarkOfDataset(
      resolveDatasetPath(String(planned.config.dataset), join(REPO_ROOT, 'datasets')),
    );
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
      dataset: SAMPLE,
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

/**
 * Embeds every distinct user turn (and question) of a dataset into the embedding cache, so later
 * dense and hybrid runs are warm. Streams the file, so M fits in memory. Prints progress and throughput.
 *
 *   pnpm tsx --conditions=source scripts/warm-embeddings.ts [--dataset s] [--roles user|all]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  resolveDatasetPath,
  streamLongMemEval,
} from '../packages/benchmark/src/benchmarks/longmemeval/load-longmemeval.js';
import { resolveOpenAiEndpoint } from '../packages/benchmark/src/config/openai-endpoints.js';
import { parseRunConfig } from '../packages/benchmark/src/config/run-sections.js';
import { onnxModelResolver } from '../packages/benchmark/src/models/onnx-model-resolver.js';
import { createEmbedder, withDiskCache } from '../packages/search-core/src/embedding/index.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 's' },
    'data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? 'datasets' },
    roles: { type: 'string', default: 'user' },
    embedder: { type: 'string', default: 'local:use-lite' },
    'cache-dir': { type: 'string', default: process.env.LME_CACHE_DIR ?? '.lme-cache' },
    batch: { type: 'string', default: '2048' },
  },
});
// hf: models are found in the model store below the cache folder (or LME_MODEL_DIR), else fetched.
const resolveOnnxModel = onnxModelResolver({
  cacheDir: values['cache-dir'],
  modelDir: process.env.LME_MODEL_DIR,
  onMessage: (message) => console.error(`model: ${message}`),
});
// openai: embedders reach their endpoint as in `lme run` (OPENAI_BASE_URL, OPENAI_API_KEY, its retries and timeout).
const endpoint = values.embedder.startsWith('openai:')
  ? resolveOpenAiEndpoint(parseRunConfig({}), 'pipeline')
  : {};
const embedder = withDiskCache(createEmbedder(values.embedder, { ...endpoint, resolveOnnxModel }), {
  dir: values['cache-dir'],
  onWarning: (message) => console.error(`warning: ${message}`),
});
// Streams the file (M holds 2.7 GB of JSON): only a digest per distinct text and one batch are held.
const dataset = streamLongMemEval(resolveDatasetPath(values.dataset, values['data-dir']));
const seen = new Set<string>();
const batchSize = Number(values.batch);
let pending: string[] = [];
let questions = 0;
const started = performance.now();
const flush = async () => {
  if (pending.length === 0) return;
  await embedder.embedDocuments({ texts: pending });
  pending = [];
  const stats = embedder.stats();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${seen.size} texts (${(dataset.fractionRead() * 100).toFixed(0)}% of the file) · ${stats.misses} embedded, ${stats.hits} cached · ${(stats.misses / seconds).toFixed(1)} texts/s · ${seconds.toFixed(0)} s`,
  );
};
for await (const record of dataset.records) {
  for (const session of record.haystack_sessions)
    for (const turn of session) {
      if (values.roles !== 'all' && turn.role !== 'user') continue;
      const digest = createHash('sha256').update(turn.content).digest('base64');
      if (seen.has(digest)) continue;
      seen.add(digest);
      pending.push(turn.content);
      if (pending.length >= batchSize) await flush();
    }
  await embedder.embedQuery({ text: record.question });
  questions++;
}
await flush();
await embedder.close();
const { corrupt, legacy } = embedder.stats();
console.log(
  `done: ${seen.size} texts and ${questions} questions in ${((performance.now() - started) / 1000).toFixed(0)} s` +
    (corrupt > 0 ? `; ${corrupt} corrupt segments set aside and re-embedded` : '') +
    (legacy > 0
      ? `; ${legacy} legacy segments not read (run \`lme cache upgrade\` first to reuse them)`
      : ''),
);

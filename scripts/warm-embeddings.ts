/**
 * Embeds every distinct user turn (and question) of a dataset into the embedding cache, so later
 * dense and hybrid runs are warm. Prints progress and throughput.
 *
 *   pnpm tsx --conditions=source scripts/warm-embeddings.ts [--dataset s] [--roles user|all]
 */
import { parseArgs } from 'node:util';
import { loadLongMemEval, resolveDatasetPath } from '../packages/benchmark/src/dataset/load-longmemeval.js';
import { createEmbedder, withDiskCache } from '../packages/search-core/src/embedding/index.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 's' },
    'data-dir': { type: 'string', default: process.env.LME_DATA_DIR ?? '../shared/datasets/longmemeval' },
    roles: { type: 'string', default: 'user' },
    embedder: { type: 'string', default: 'local:use-lite' },
    'cache-dir': { type: 'string', default: process.env.LME_CACHE_DIR ?? '.lme-cache' },
    batch: { type: 'string', default: '2048' },
  },
});
const { records } = await loadLongMemEval(resolveDatasetPath(values.dataset, values['data-dir']));
const texts = new Set<string>();
for (const record of records) {
  for (const session of record.haystack_sessions) {
    for (const turn of session) if (values.roles === 'all' || turn.role === 'user') texts.add(turn.content);
  }
}
const all = [...texts];
const embedder = withDiskCache(createEmbedder(values.embedder), {
  dir: values['cache-dir'],
  onWarning: (message) => console.error(`warning: ${message}`),
});
const started = performance.now();
const batch = Number(values.batch);
for (let start = 0; start < all.length; start += batch) {
  await embedder.embedDocuments({ texts: all.slice(start, start + batch) });
  const stats = embedder.stats();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${Math.min(start + batch, all.length)}/${all.length} texts · ${stats.misses} embedded, ${stats.hits} cached · ${(stats.misses / seconds).toFixed(1)} texts/s · ${seconds.toFixed(0)} s`,
  );
}
for (const record of records) await embedder.embedQuery({ text: record.question });
await embedder.close();
const { corrupt, legacy } = embedder.stats();
console.log(
  `done: ${all.length} texts and ${records.length} questions in ${((performance.now() - started) / 1000).toFixed(0)} s` +
    (corrupt > 0 ? `; ${corrupt} corrupt segments set aside and re-embedded` : '') +
    (legacy > 0
      ? `; ${legacy} legacy segments not read (run \`lme cache upgrade\` first to reuse them)`
      : ''),
);

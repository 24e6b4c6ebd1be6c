/**
 * A bridge's sample run cold and warm (issue 61): runs `lme run --provider <bridge>` twice on one
 * fresh cache dir, first with the bridge's embedding cache empty (every text embedded), then with
 * what that run wrote (every text read back), and prints for each the wall time, the ingest p50 and
 * p95 (summary.json `latency.ingest_ms`), session recall_any@5 and the rankings hash (config.json
 * `fingerprint.rankings`), which must be equal. Exits 1 when a run fails or the rankings differ.
 *
 *   pnpm tsx scripts/bridge-cold-warm.ts [--provider mem0] [--provider mempalace]
 *       [--dataset sample] [--limit N] [--keep <folder>]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    provider: { type: 'string', multiple: true, default: ['mem0', 'mempalace'] },
    dataset: { type: 'string', default: 'sample' },
    limit: { type: 'string' },
    keep: { type: 'string' },
  },
});

const work = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'lme-bridge-cold-warm-'));
mkdirSync(work, { recursive: true });

type Phase = { seconds: number; ingestP50: number; ingestP95: number; recall: number; rankings: string };

function phase(provider: string, name: string): Phase {
  const started = performance.now();
  const args = ['run', '--dataset', values.dataset, '--provider', provider];
  args.push('--cache-dir', join(work, provider, 'cache'), '--out', join(work, provider, 'runs'));
  if (values.limit !== undefined) args.push('--limit', values.limit);
  const child = spawnSync('pnpm', ['-s', 'lme', ...args, '--run-id', name], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const seconds = (performance.now() - started) / 1000;
  if (child.status !== 0) {
    console.error(`${provider} ${name}: lme run exited ${child.status}`);
    process.exit(1);
  }
  const folder = join(work, provider, 'runs', name);
  const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as {
    metrics: { overall: { metrics: Record<string, number> } };
  };
  const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as {
    fingerprint: { rankings: string };
  };
  const metrics = summary.metrics.overall.metrics;
  return {
    seconds,
    ingestP50: metrics['latency.ingest_ms.p50']! / 1000,
    ingestP95: metrics['latency.ingest_ms.p95']! / 1000,
    recall: metrics['session.recall_any@5']!,
    rankings: config.fingerprint.rankings,
  };
}

let differ = false;
for (const provider of values.provider) {
  const cold = phase(provider, 'cold');
  const load = loadavg()[0]!.toFixed(1);
  const warm = phase(provider, 'warm');
  for (const [name, figures] of [
    ['cold', cold],
    ['warm', warm],
  ] as const) {
    console.log(
      `${provider} ${name}: wall ${figures.seconds.toFixed(0)} s, ingest p50 ${figures.ingestP50.toFixed(1)} s / p95 ${figures.ingestP95.toFixed(1)} s, recall_any@5 ${figures.recall.toFixed(4)}, rankings ${figures.rankings.slice(0, 16)}`,
    );
  }
  console.log(
    `${provider}: warm/cold wall ${(warm.seconds / cold.seconds).toFixed(2)}, load average ${load} after cold, ${loadavg()[0]!.toFixed(1)} after warm`,
  );
  if (warm.rankings !== cold.rankings) {
    console.error(`${provider}: the warm run ranked differently from the cold one`);
    differ = true;
  }
}
if (!values.keep) rmSync(work, { recursive: true, force: true });
process.exit(differ ? 1 : 0);

import type { Run } from './read-run.js';

type Shard = { index: number; count: number; run: Run };

function label(run: Run): string {
  return `${run.config.run_id} (${run.dir})`;
}

function shardOf(run: Run): Shard | null {
  const shard = run.config.config.shard;
  if (shard === undefined) return null;
  const match = /^(\d+)\/(\d+)$/.exec(String(shard));
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new Error(`Run ${label(run)} records shard "${String(shard)}", which is not i/n with 1 <= i <= n.`);
  }
  return { index, count, run };
}

/**
 * Checks that shard runs make one whole run: all sharded or none, every shard of the same count
 * (1/2 with 1/3 is refused), none twice, and, unless `allowPartial`, none missing. Throws one
 * sentence; returns warnings (a partial merge). Runs with no shard are not checked here (the
 * per-question check of mergeRuns still applies).
 */
export function checkShards(runs: readonly Run[], options: { allowPartial?: boolean } = {}): string[] {
  const shards = runs.map(shardOf);
  const sharded = shards.filter((shard): shard is Shard => shard !== null);
  if (sharded.length === 0) return [];
  const unsharded = runs.find((_, index) => shards[index] === null);
  const first = sharded[0]!;
  if (unsharded !== undefined) {
    throw new Error(
      `Cannot merge run ${label(unsharded)}, which is not a shard, with shard runs (${label(first.run)} is shard ${first.index}/${first.count}).`,
    );
  }
  const other = sharded.find((shard) => shard.count !== first.count);
  if (other !== undefined) {
    throw new Error(
      `Cannot merge shards of different counts: ${label(first.run)} is shard ${first.index}/${first.count} and ${label(other.run)} is shard ${other.index}/${other.count}.`,
    );
  }
  const seen = new Map<number, Shard>();
  for (const shard of sharded) {
    const earlier = seen.get(shard.index);
    if (earlier !== undefined) {
      throw new Error(
        `Cannot merge shard ${shard.index}/${shard.count} twice: runs ${label(earlier.run)} and ${label(shard.run)} are both that shard.`,
      );
    }
    seen.set(shard.index, shard);
  }
  const missing = Array.from({ length: first.count }, (_, index) => index + 1).filter(
    (index) => !seen.has(index),
  );
  if (missing.length === 0) return [];
  const given = [...seen.keys()].sort((a, b) => a - b).map((index) => `${index}/${first.count}`);
  const absent = missing.map((index) => `${index}/${first.count}`).join(', ');
  if (!options.allowPartial) {
    throw new Error(
      `Cannot merge an incomplete set of shards: ${absent} ${missing.length === 1 ? 'is' : 'are'} missing (given ${given.join(', ')}); add ${missing.length === 1 ? 'it' : 'them'}, or pass --allow-partial to merge part of the dataset.`,
    );
  }
  return [
    `Shard${missing.length === 1 ? '' : 's'} ${absent} ${missing.length === 1 ? 'is' : 'are'} missing (--allow-partial): the merged run holds only shard${given.length === 1 ? '' : 's'} ${given.join(', ')} of the dataset.`,
  ];
}

import type { RunFingerprint } from '../run/outputs/run-fingerprint.js';
import type { Run } from './read-run.js';

export type SetupCheck = {
  /** Runs whose setup could not be checked (no fingerprint: unfinished, or older than fingerprints). */
  warnings: string[];
  /**
   * The int8 kernel family each run embedded with, by run_id, when they differ and the merge was
   * allowed to join them (`allowMixedCpus`); absent otherwise.
   */
  mixedCpus?: Record<string, string>;
};

const short = (hash: string | null | undefined) => (hash ? hash.slice(0, 12) : 'unknown');

function label(run: Run): string {
  return `${run.config.run_id} (${run.dir})`;
}

/** The models part as one comparable string (record keys sorted). */
function modelsKey(models: RunFingerprint['models']): string {
  return JSON.stringify(Object.entries(models).sort(([left], [right]) => left.localeCompare(right)));
}

function modelsText(models: RunFingerprint['models']): string {
  const entries = Object.entries(models);
  if (entries.length === 0) return 'no model file';
  return entries.map(([name, files]) => `${name} ${short(files.model)}`).join(' + ');
}

/** The `#cpu:<family>` an ONNX embedder's cache identity carries (provider_stats.embedderIdentity), if any. */
export function cpuKernelsOf(run: Run): string | undefined {
  const identity = run.config.provider_stats?.['embedderIdentity'];
  if (typeof identity !== 'string') return undefined;
  return /#cpu:([^#]+)/.exec(identity)?.[1];
}

type Part = {
  name: string;
  value: (fingerprint: RunFingerprint) => string;
  show: (fingerprint: RunFingerprint) => string;
};

/** The setup parts runs must share to be merged, in the order they are checked. */
const PARTS: readonly Part[] = [
  {
    name: 'code',
    value: (fingerprint) => String(fingerprint.code),
    show: (fingerprint) => short(fingerprint.code),
  },
  {
    name: 'models',
    value: (fingerprint) => modelsKey(fingerprint.models),
    show: (fingerprint) => modelsText(fingerprint.models),
  },
  {
    name: 'dataset',
    value: (fingerprint) => String(fingerprint.dataset),
    show: (fingerprint) => short(fingerprint.dataset),
  },
];

/**
 * Checks that runs to be merged were made alike, from the setup fingerprints their config.json
 * records (run/outputs/run-fingerprint.ts): the same code (sources and lockfile), the same model files and
 * the same dataset text. Settings are compared key by key by the caller (configDifferences), since
 * the fingerprint's config hash covers the shard too. An int8 embedder's vectors depend on the
 * CPU's kernel family (docs/embedders.md): runs embedded on different families are joined only
 * with `allowMixedCpus`, and the families are returned to be recorded. Throws one sentence naming
 * the part that differs.
 */
export function checkSetups(runs: readonly Run[], options: { allowMixedCpus?: boolean } = {}): SetupCheck {
  const warnings: string[] = [];
  const fingerprinted = runs.filter((run) => {
    if (run.config.fingerprint !== undefined) return true;
    warnings.push(
      `Run ${label(run)} records no setup fingerprint (it did not finish, or predates fingerprints): its code and model files are not checked against the other runs.`,
    );
    return false;
  });
  const first = fingerprinted[0];
  if (first !== undefined) {
    for (const part of PARTS) {
      const expected = part.value(first.config.fingerprint!);
      const other = fingerprinted.find((run) => part.value(run.config.fingerprint!) !== expected);
      if (other === undefined) continue;
      // The code hash is null where lme runs without its sources beside it: unknown, not different.
      if (
        part.name === 'code' &&
        (other.config.fingerprint!.code === null || first.config.fingerprint!.code === null)
      ) {
        warnings.push(
          `Run ${label(first.config.fingerprint!.code === null ? first : other)} records no code hash: its code is not checked against the other runs.`,
        );
        continue;
      }
      throw new Error(
        `Cannot merge runs made with different ${part.name}: ${label(first)} has ${part.show(first.config.fingerprint!)} and ${label(other)} has ${part.show(other.config.fingerprint!)}; make every shard with the same ${part.name === 'code' ? 'lme checkout' : part.name} and merge again.`,
      );
    }
  }
  const families = runs.map((run) => [run.config.run_id, cpuKernelsOf(run)] as const);
  const known = families.filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
  if (new Set(known.map(([, family]) => family)).size <= 1) return { warnings };
  const listed = known.map(([runId, family]) => `${runId}: ${family}`).join(', ');
  if (!options.allowMixedCpus) {
    throw new Error(
      `Cannot merge runs whose int8 embeddings were made on CPUs with different kernels (${listed}), which round the last digits of a vector differently; rerun the shards on one kind of machine, or pass --allow-mixed-cpus to merge them anyway (recorded in config.json).`,
    );
  }
  warnings.push(
    `Merging runs embedded on CPUs with different int8 kernels (${listed}, --allow-mixed-cpus): their vectors may differ in the last digits, so the merged run may not equal one made on one machine.`,
  );
  return { warnings, mixedCpus: Object.fromEntries(known) };
}

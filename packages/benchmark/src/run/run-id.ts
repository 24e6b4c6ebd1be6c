import { randomBytes } from 'node:crypto';
import type { DataSection } from '../config/sections/data-section.js';
import type { ProviderSection } from '../config/sections/provider-section.js';
import type { RetrievalSection } from '../config/sections/retrieval-section.js';
import type { RunSection } from '../config/sections/run-section.js';

/** What a default run id names: the preset, else the provider (the pipeline's retriever and granularity), and the dataset. */
export type RunIdSettings = Pick<DataSection, 'dataset' | 'shard'> &
  Pick<RunSection, 'preset'> &
  Pick<ProviderSection, 'provider'> &
  Pick<RetrievalSection, 'retriever' | 'granularity'>;

import { usesPipeline } from '../config/run-shape.js';
import { providerCapabilities } from '../providers/provider-registry.js';
import type { ProviderIdentity } from '../results/provider-identity.js';

/** Longest server name a run id takes from a health reply. */
const MAX_NAME_IN_ID = 40;

/**
 * A fresh run id naming what ran, then the dataset, unique even for runs started in the same
 * millisecond: the preset when one was used (`2026-11-22T01-02-03-456Z-bm25-official-s-3f9a2c`),
 * else the pipeline's retriever and granularity (`…Z-bm25-session-s-shard-1-of-4-3f9a2c`), else
 * the provider with what the system reported (`…Z-http-my-memory-1.4.0-s-3f9a2c`; `http` alone
 * without a name).
 */
export function defaultRunId(
  config: RunIdSettings,
  now: Date = new Date(),
  options: { provider?: ProviderIdentity } = {},
): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const dataset = safeName(config.dataset.replace(/^.*[\\/]/, '').replace(/\.json(\.gz)?$/, ''));
  const shard = config.shard ? `-shard-${config.shard.replace('/', '-of-')}` : '';
  return `${stamp}-${whatRan(config, options.provider)}-${dataset}${shard}-${randomBytes(3).toString('hex')}`;
}

/** The preset (a preset file by its name without folder and extension), else the system that ran. */
function whatRan(config: RunIdSettings, provider: ProviderIdentity | undefined): string {
  if (config.preset !== undefined) {
    const file = config.preset.replace(/^.*[\\/]/, '').replace(/\.(json|ya?ml)$/i, '');
    const preset = safeName(file.slice(0, MAX_NAME_IN_ID), '').replace(/[.-]+$/, '');
    if (preset !== '') return preset;
  }
  if (usesPipeline(providerCapabilities(config.provider))) return `${config.retriever}-${config.granularity}`;
  return systemName(config, provider);
}

/** `<provider>[-<name>[-<version>]]`: a provider other than the pipeline, by what it reported. */
function systemName(
  config: Pick<ProviderSection, 'provider'>,
  provider: ProviderIdentity | undefined,
): string {
  const reported = [provider?.name, provider?.version].filter((part) => part !== undefined).join(' ');
  const name = reported === '' ? '' : safeName(reported.slice(0, MAX_NAME_IN_ID), '').replace(/[.-]+$/, '');
  return name === '' ? config.provider : `${config.provider}-${name}`;
}

/** `text` with every character outside letters, digits, dot, dash and underscore made a dash. */
export function safeName(text: string, fallback = 'dataset'): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || fallback;
}

/** Refuses a run id that is not a plain folder name (it would write outside --out). */
export function checkRunId(runId: string, flag = '--run-id'): void {
  if (runId === '' || runId === '.' || runId === '..' || !/^[\w.-]+$/.test(runId)) {
    throw new Error(
      `${flag} ${JSON.stringify(runId)} is not a folder name: use letters, digits, dot, dash and underscore, and not "." or "..".`,
    );
  }
}

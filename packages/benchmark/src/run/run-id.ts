import { randomBytes } from 'node:crypto';
import type { RunConfig } from '../config/run-config.js';
import type { ProviderIdentity } from '../results/provider-identity.js';

/** Longest server name a run id takes from a health reply. */
const MAX_NAME_IN_ID = 40;

/**
 * A fresh run id, unique even for runs started in the same millisecond:
 * `2026-11-22T01-02-03-456Z-s-bm25-session-shard-1-of-4-3f9a2c`. An external system is named by
 * what it reported, not by the pipeline's retriever it does not use:
 * `2026-11-22T01-02-03-456Z-s-http-my-memory-1.4.0-session-3f9a2c` (`http` alone without a name).
 */
export function defaultRunId(
  config: RunConfig,
  now: Date = new Date(),
  options: { provider?: ProviderIdentity } = {},
): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const dataset = safeName(config.dataset.replace(/^.*[\\/]/, '').replace(/\.json(\.gz)?$/, ''));
  const shard = config.shard ? `-shard-${config.shard.replace('/', '-of-')}` : '';
  return `${stamp}-${dataset}-${systemName(config, options.provider)}-${config.granularity}${shard}-${randomBytes(3).toString('hex')}`;
}

/** The pipeline's retriever, or `<provider>[-<name>[-<version>]]` for another provider. */
function systemName(config: RunConfig, provider: ProviderIdentity | undefined): string {
  if (config.provider === 'pipeline') return config.retriever;
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

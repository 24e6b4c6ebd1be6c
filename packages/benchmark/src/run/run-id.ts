import { randomBytes } from 'node:crypto';
import type { RunConfig } from '../config/run-config.js';

/**
 * A fresh run id, unique even for runs started in the same millisecond:
 * `2026-11-22T01-02-03-456Z-s-bm25-session-shard-1-of-4-3f9a2c`.
 */
export function defaultRunId(config: RunConfig, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const dataset = safeName(config.dataset.replace(/^.*[\\/]/, '').replace(/\.json(\.gz)?$/, ''));
  const shard = config.shard ? `-shard-${config.shard.replace('/', '-of-')}` : '';
  return `${stamp}-${dataset}-${config.retriever}-${config.granularity}${shard}-${randomBytes(3).toString('hex')}`;
}

/** `text` with every character outside letters, digits, dot, dash and underscore made a dash. */
export function safeName(text: string): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || 'dataset';
}

/** Refuses a run id that is not a plain folder name (it would write outside --out). */
export function checkRunId(runId: string, flag = '--run-id'): void {
  if (runId === '' || runId === '.' || runId === '..' || !/^[\w.-]+$/.test(runId)) {
    throw new Error(
      `${flag} ${JSON.stringify(runId)} is not a folder name: use letters, digits, dot, dash and underscore, and not "." or "..".`,
    );
  }
}

import { freemem } from 'node:os';
import { embedderFamily } from '../../config/component-ids.js';
import type { SelectedComponent } from '../../config/run-sections.js';

const MB = 1024 * 1024;

/**
 * The memory the threads of a run's embedders may take: half of what is free, and never more
 * than 2 GB (32 use-lite threads, 8 ONNX ones: far past what a machine's cores keep busy).
 */
export const THREADS_MAX_BYTES = 2048 * MB;
const SHARE = 0.5;

/** `1.5 GB`, `640 MB`. */
function size(bytes: number): string {
  return bytes >= 1024 * MB ? `${(bytes / (1024 * MB)).toFixed(1)} GB` : `${Math.round(bytes / MB)} MB`;
}

/**
 * `--embed-threads` bounded by memory: the threads of the in-process embedders the config names
 * (each thread a copy of its model: its family's `threadBytes`, components/embedders/) may take at most half of the memory free
 * when the run starts, and at most `THREADS_MAX_BYTES`; more is refused in one sentence naming the flag, the estimate and the most
 * that fit, before a thread starts. Nothing to check without the flag (the default, the cores up
 * to 4, always fits) or for hosted embedders (no thread).
 */
export function checkEmbedThreads(
  embedders: readonly SelectedComponent[],
  freeBytes: number = freemem(),
): void {
  // One `--embed-threads` for every in-process family (a shared option of theirs).
  const threads = embedders
    .map(({ options }) => options.embedThreads as number | undefined)
    .find((value) => value !== undefined);
  if (threads === undefined) return;
  // An unknown family holds nothing here: creating it refuses it by name.
  const perThread = embedders.reduce(
    (total, { id }) => total + (embedderFamily(id)?.capabilities.threadBytes ?? 0),
    0,
  );
  if (perThread === 0) return;
  const budget = Math.min(freeBytes * SHARE, THREADS_MAX_BYTES);
  if (threads * perThread <= budget) return;
  const fit = Math.max(1, Math.floor(budget / perThread));
  throw new Error(
    `--embed-threads ${threads}: ${threads} threads of ${embedders.map(({ id }) => id).join('+')} would hold about ${size(threads * perThread)} (about ${size(perThread)} each, a copy of the model per thread), more than ${budget === THREADS_MAX_BYTES ? `the ${size(THREADS_MAX_BYTES)} lme lets embedder threads take` : `half of the ${size(freeBytes)} this machine has free`}; pass --embed-threads ${fit} or fewer (threads beyond the cores add memory, not speed).`,
  );
}

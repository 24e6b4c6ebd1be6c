/**
 * A token count a server reported, or 0 (no usage) when it is not a finite number of at least 0: a
 * negative count would make spend negative and let `--max-cost` be overrun, and a run that limits
 * cost stops on a call with no usage.
 */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

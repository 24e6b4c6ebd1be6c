import { ConfigError } from './config-error.js';
import { type RunConfig, type RunConfigInput, runConfigSchema } from './run-config.js';
import { flagOfKey } from './run-options.js';

/** Validates a merged config; throws one sentence per bad key, naming the key. */
export function parseRunConfig(input: RunConfigInput): RunConfig {
  const parsed = runConfigSchema.safeParse(input);
  if (parsed.success) {
    // Session-aware retrieval ranks turns inside sessions: its documents are turns.
    if (parsed.data.sessionAware) parsed.data.granularity = 'turn';
    // Multi-route recall ranks turns (and sessions from them); a chunk unit names its granularity.
    if (parsed.data.multiRoute) parsed.data.granularity = 'turn';
    if (parsed.data.multiSource && (parsed.data.multiRoute || parsed.data.sessionAware))
      throw new ConfigError(
        'Invalid configuration: multiSource: cannot be combined with multiRoute or sessionAware (each is a base retriever).',
        ['multiSource'],
      );
    if (parsed.data.chunkUnit)
      parsed.data.granularity = parsed.data.chunkUnit === 'session' ? 'session' : 'turn';
    const conflict =
      parsed.data.sessionFirst && !parsed.data.multiRoute
        ? 'sessionFirst: needs multiRoute (--multi-route)'
        : parsed.data.multiRoute && parsed.data.sessionAware
          ? 'multiRoute: cannot be combined with sessionAware (both are base retrievers)'
          : parsed.data.multiRoute && parsed.data.chunkUnit === 'session'
            ? 'chunkUnit: multiRoute ranks turns or rounds, not sessions'
            : undefined;
    if (conflict) throw new ConfigError(`Invalid configuration: ${conflict}.`, [conflict.split(':')[0]!]);
    return parsed.data;
  }
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(config)';
    const flag = issue.path.length > 0 ? flagOfKey(String(issue.path[0])) : key;
    return `${key}: ${issue.message}${flag === key ? '' : ` (${flag})`}`;
  });
  throw new ConfigError(
    `Invalid configuration: ${problems.join('; ')}.`,
    parsed.error.issues.map((issue) => String(issue.path[0] ?? '(config)')),
  );
}

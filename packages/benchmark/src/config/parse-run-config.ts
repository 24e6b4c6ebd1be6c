import { ConfigError } from './config-error.js';
import { fromLegacyRetrieverKeys, settleBaseRetriever } from './retriever-settle.js';
import { type RunConfig, type RunConfigInput, runConfigSchema } from './run-config.js';
import { flagOfKey } from './run-options.js';

/**
 * Validates a merged config; throws one sentence per bad key, naming the key. The old
 * base-retriever booleans are mapped onto `retriever` first, and the config is held to its base
 * retriever's descriptor (config/retriever-settle.ts).
 */
export function parseRunConfig(input: RunConfigInput): RunConfig {
  const parsed = runConfigSchema.safeParse(fromLegacyRetrieverKeys(input));
  if (parsed.success) {
    const config = settleBaseRetriever(parsed.data);
    // A chunk unit names its granularity (a retriever that ranks turns refuses `session`).
    if (config.chunkUnit) config.granularity = config.chunkUnit === 'session' ? 'session' : 'turn';
    return config;
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

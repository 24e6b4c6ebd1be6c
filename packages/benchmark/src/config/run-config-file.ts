import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { suggestNames } from './close-names.js';
import { ConfigError } from './config-error.js';
import { type RunConfigInput, runConfigSchema } from './run-config.js';

/** The keys a run config file, a preset or a run's config.json may set: those of the run config. */
export const RUN_CONFIG_KEYS: readonly string[] = Object.keys(runConfigSchema.shape);

/** What a preset file may hold besides `config`. */
const PRESET_FIELDS = ['config', 'description', 'figure'];

/**
 * Refuses a key the run config does not have, in one sentence naming the file, the key and the
 * closest known names.
 */
export function checkRunConfigKeys(values: Record<string, unknown>, source: string): void {
  for (const key of Object.keys(values)) {
    if (!RUN_CONFIG_KEYS.includes(key))
      throw new ConfigError(`${source}: unknown key "${key}" (${suggestNames(key, RUN_CONFIG_KEYS)}).`, [
        key,
      ]);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a config file as a value: YAML for .yaml/.yml, JSON otherwise. */
function parseConfigText(path: string, text: string): unknown {
  const yaml = ['.yaml', '.yml'].includes(extname(path).toLowerCase());
  try {
    return yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw new ConfigError(`${path} is not valid ${yaml ? 'YAML' : 'JSON'} (${reason}).`);
  }
}

/**
 * A run config file (`lme run --config`): JSON or YAML holding the run config keys, either flat
 * (`dataset: s`) or under `config` as a preset holds them; a run's config.json (`run_id`,
 * `config` and provenance) replays that run, in a new folder (its runId is dropped).
 */
export function readRunConfigFile(path: string): RunConfigInput {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--config ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  const value = parseConfigText(path, text);
  if (!isObject(value))
    throw new ConfigError(`${path}: a run config file holds an object of run config keys.`);
  if (!isObject(value.config)) {
    checkRunConfigKeys(value, path);
    return value as RunConfigInput;
  }
  const { runId: _runId, ...config } = value.config;
  // A run's config.json carries provenance beside `config`; a preset only a description.
  if (!('run_id' in value)) {
    for (const key of Object.keys(value))
      if (!PRESET_FIELDS.includes(key))
        throw new ConfigError(
          `${path}: unknown top-level key "${key}"; a config file holds run config keys, or "config" with ${PRESET_FIELDS.slice(1).join(' and ')}.`,
          [key],
        );
  }
  checkRunConfigKeys(config, `${path}: config`);
  return ('run_id' in value ? config : value.config) as RunConfigInput;
}

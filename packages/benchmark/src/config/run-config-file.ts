import { extname } from 'node:path';
import { type Document, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import { suggestNames } from './close-names.js';
import { ConfigError } from './config-error.js';
import { READ_LIMITS, readGuardedTextFile } from './read-guarded-file.js';
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
    // A value of the wrong type is named where it was written, not by the flag it stands for.
    const checked = runConfigSchema.shape[key as keyof typeof runConfigSchema.shape].safeParse(values[key]);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const where = [key, ...issue.path.map(String)].join('.');
      throw new ConfigError(`${source}: ${where}: ${issue.message}.`, [key]);
    }
  }
}

/** How deep a config's values may nest: the real ones nest 3 levels (a preset's `config.weights`). */
export const CONFIG_MAX_DEPTH = 32;

/** The depth of a parsed value (a scalar is 0), walked without recursion, stopping past `limit`. */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The first key a YAML mapping holds twice ("k" at line 3), walked without recursion. */
function duplicateYamlKey(document: Document): string | undefined {
  const stack: unknown[] = [document.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (seen.has(key)) return key;
        seen.add(key);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      stack.push(...node.items);
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The text of a config file as a value: YAML for .yaml/.yml, JSON otherwise. YAML is read as plain
 * data: a tag it does not know (`!!js/function`) or a key written twice is refused, not warned
 * about; its duplicate-key check is lme's own (linear: the library's compares every pair of keys,
 * 63 s for 100k keys). Values nested deeper than `CONFIG_MAX_DEPTH` are refused.
 */
function parseConfigText(path: string, text: string): unknown {
  const yaml = ['.yaml', '.yml'].includes(extname(path).toLowerCase());
  const invalid = (reason: string) =>
    new ConfigError(`${path} is not valid ${yaml ? 'YAML' : 'JSON'} (${reason}).`);
  const tooDeep = () =>
    new ConfigError(
      `${path} nests values more than ${CONFIG_MAX_DEPTH} levels deep; a run config holds flat values.`,
    );
  let value: unknown;
  if (yaml) {
    const document = parseDocument(text, { uniqueKeys: false, logLevel: 'silent' });
    const problem = document.errors[0] ?? document.warnings[0];
    if (problem) {
      if (/Maximum call stack/.test(problem.message)) throw tooDeep();
      throw invalid(problem.message.split('\n')[0]!.replace(/:$/, ''));
    }
    const duplicate = duplicateYamlKey(document);
    if (duplicate !== undefined) throw invalid(`the key "${duplicate}" is written twice`);
    try {
      value = document.toJS();
    } catch (error) {
      if (error instanceof RangeError) throw tooDeep();
      throw invalid((error as Error).message.split('\n')[0]!);
    }
  } else {
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (error instanceof RangeError) throw tooDeep();
      throw invalid((error as Error).message.split('\n')[0]!);
    }
  }
  if (depthOf(value, CONFIG_MAX_DEPTH) > CONFIG_MAX_DEPTH) throw tooDeep();
  return value;
}

/**
 * A run config file (`lme run --config`): JSON or YAML holding the run config keys, either flat
 * (`dataset: s`) or under `config` as a preset holds them; a run's config.json (`run_id`,
 * `config` and provenance) replays that run, in a new folder (its runId is dropped).
 */
export function readRunConfigFile(path: string, flag: '--config' | '--preset' = '--config'): RunConfigInput {
  let text: string;
  try {
    text = readGuardedTextFile(path, {
      what: `${flag} ${path}`,
      maxBytes: READ_LIMITS.small,
      links: 'follow',
    });
  } catch (error) {
    throw new ConfigError((error as Error).message);
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

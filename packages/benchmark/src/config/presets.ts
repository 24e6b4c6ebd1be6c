import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closeNames } from './close-names.js';
import type { RunConfigInput } from './run-config.js';
import { checkRunConfigKeys, readRunConfigFile } from './run-config-file.js';
import { decodeUtf8 } from './strict-utf8.js';

/**
 * Presets live in configs/presets/<name>.json as {"description", "figure"?, "config"}; `figure`
 * is a measured result of the preset on S, only when one was measured.
 */
export const PRESETS_DIR = resolve(import.meta.dirname, '../../../../configs/presets');

export type Preset = { name: string; description: string; figure?: string; config: RunConfigInput };

/** A path rather than a name: it names a folder or ends in .json, .yaml or .yml. */
function isPath(nameOrPath: string): boolean {
  return /[\\/]/.test(nameOrPath) || /\.(json|ya?ml)$/i.test(nameOrPath);
}

export function listPresets(dir = PRESETS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/**
 * Loads a named preset, or a preset file by path (JSON or YAML, the shapes `lme run --config`
 * reads: a run's config.json replays that run); an unknown name lists the close ones.
 */
export function loadPreset(nameOrPath: string, dir = PRESETS_DIR): Preset {
  if (isPath(nameOrPath)) {
    if (!existsSync(nameOrPath)) throw new Error(`--preset ${nameOrPath}: no such file.`);
    return { name: nameOrPath, description: '', config: readRunConfigFile(resolve(nameOrPath), '--preset') };
  }
  const path = join(dir, `${nameOrPath}.json`);
  if (!existsSync(path)) {
    const close = closeNames(nameOrPath, listPresets(dir));
    throw new Error(
      `Unknown preset "${nameOrPath}"; known: ${listPresets(dir).join(', ')}${close.length > 0 ? ` (closest: ${close[0]})` : ''}.`,
    );
  }
  let parsed: { description?: unknown; figure?: unknown; config?: unknown };
  const text = decodeUtf8(readFileSync(path), path);
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed.config !== 'object' || parsed.config === null) {
    throw new Error(`${path}: a preset needs a "config" object`);
  }
  checkRunConfigKeys(parsed.config as Record<string, unknown>, `${path}: config`);
  return {
    name: nameOrPath,
    description: typeof parsed.description === 'string' ? parsed.description : '',
    ...(typeof parsed.figure === 'string' ? { figure: parsed.figure } : {}),
    config: parsed.config as RunConfigInput,
  };
}

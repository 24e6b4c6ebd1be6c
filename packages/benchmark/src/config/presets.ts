import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunConfigInput } from './run-config.js';
import { decodeUtf8 } from './strict-utf8.js';

/** Presets live in configs/presets/<name>.json as {"description", "config"}. */
export const PRESETS_DIR = resolve(import.meta.dirname, '../../../../configs/presets');

export type Preset = { name: string; description: string; config: RunConfigInput };

export function listPresets(dir = PRESETS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** Loads a named preset (or a path to a preset file); an unknown name lists the known ones. */
export function loadPreset(nameOrPath: string, dir = PRESETS_DIR): Preset {
  const path = nameOrPath.endsWith('.json') ? resolve(nameOrPath) : join(dir, `${nameOrPath}.json`);
  if (!existsSync(path)) {
    throw new Error(`Unknown preset "${nameOrPath}"; known: ${listPresets(dir).join(', ')}.`);
  }
  let parsed: { description?: unknown; config?: unknown };
  const text = decodeUtf8(readFileSync(path), path);
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed.config !== 'object' || parsed.config === null) {
    throw new Error(`${path}: a preset needs a "config" object`);
  }
  return {
    name: nameOrPath,
    description: typeof parsed.description === 'string' ? parsed.description : '',
    config: parsed.config as RunConfigInput,
  };
}

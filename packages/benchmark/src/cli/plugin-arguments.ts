import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { READ_LIMITS, readGuardedTextFile } from '../config/read-guarded-file.js';
import { listFlag } from './parse-flag.js';

/**
 * The `plugins` list of a run config file or a results folder's config.json (flat or under
 * `config`), relative to the file's folder.
 */
function configFilePlugins(path: string, links: 'follow' | 'refuse'): string[] {
  let value: unknown;
  try {
    value = parse(readGuardedTextFile(path, { maxBytes: READ_LIMITS.config, links }));
  } catch {
    return []; // The run config and resume readers report a file they cannot read, in their own words.
  }
  const keys = value as { plugins?: unknown; config?: { plugins?: unknown } } | null;
  const listed = keys?.plugins ?? keys?.config?.plugins;
  if (!Array.isArray(listed)) return [];
  return listed
    .filter((item): item is string => typeof item === 'string')
    .map((item) => (item.startsWith('.') && !isAbsolute(item) ? resolve(dirname(path), item) : item));
}

/**
 * The plugins a run names, read before commander parses its arguments (the plugins' components
 * must be in the registries before the run config and its flags are built from them): the
 * `--plugin` values (`--plugin a`, `--plugin=a`, `--plugin a,b`), then a `--config` file's `plugins`,
 * and those a resumed run (`--resume <dir>`) was made with, so a resume needs no `--plugin` again (a
 * plugin changed since is changed code, which the resume refuses; one that is gone, one sentence).
 */
export function pluginArguments(args: readonly string[]): string[] {
  const values: string[] = [];
  const flagValue = (flag: string, index: number): string | undefined => {
    const argument = args[index]!;
    if (argument === flag) return args[index + 1];
    return argument.startsWith(`${flag}=`) ? argument.slice(flag.length + 1) : undefined;
  };
  for (let index = 0; index < args.length && args[index] !== '--'; index++) {
    const plugin = flagValue('--plugin', index);
    if (plugin !== undefined) values.push(...listFlag(plugin));
    const config = flagValue('--config', index);
    if (config !== undefined) values.push(...configFilePlugins(config, 'follow'));
    const resumed = flagValue('--resume', index);
    if (resumed !== undefined) values.push(...configFilePlugins(join(resumed, 'config.json'), 'refuse'));
  }
  return [...new Set(values)];
}

import { readFileSync } from 'node:fs';

/** The version of @lme/benchmark (its package.json, from src/ or dist/ alike), or `unknown`. */
export function lmeVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

// The content hash of lme's sources: what a run's fingerprint records as `code`
// (src/run/outputs/run-fingerprint.ts) and what the build is keyed by (ensure-built.js), so lme
// never runs a build made from other sources than the ones it names. Plain JavaScript with no
// dependencies: it runs before anything is built.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * SHA-256 over the non-test sources under `packagesDir/<package>/src` (.ts, .mts, .js, .mjs,
 * .json; fixtures and node_modules left out) and the pnpm-lock.yaml beside `packagesDir`; null
 * when there are none (a build without its sources).
 */
export function sourceHash(packagesDir) {
  const files = sourceFiles(packagesDir);
  if (files.length === 0) return null;
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${relative(packagesDir, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The files `sourceHash` reads, sorted; none when `packagesDir` holds no sources. */
export function sourceFiles(packagesDir) {
  if (!existsSync(packagesDir)) return [];
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(path);
      } else if (/\.(ts|mts|js|mjs|json)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        files.push(path);
      }
    }
  };
  for (const entry of readdirSync(packagesDir, { withFileTypes: true })) {
    const src = join(packagesDir, entry.name, 'src');
    // A hidden folder (a test's scratch copy of a package) is not lme's code.
    if (entry.isDirectory() && !entry.name.startsWith('.') && existsSync(src)) walk(src);
  }
  if (files.length === 0) return [];
  const lockfile = resolve(packagesDir, '../pnpm-lock.yaml');
  if (existsSync(lockfile)) files.push(lockfile);
  return files.sort();
}

// Keeps packages/*/dist in step with the sources, so `lme` runs the built JavaScript (fast start)
// and never a stale build: when any source file, tsconfig or package.json is newer than the last
// build's stamp, `tsc -b` and then bin/bundle-cli.js run first (a failed build stops lme, naming
// why). Plain JavaScript with no dependencies: it must run before anything is built.
// As a script: `node ensure-built.js` builds when stale; `--force` always builds (pnpm build).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const packagesOf = (root) => ['search-core', 'benchmark'].map((name) => join(root, 'packages', name));
const stampOf = (root) => join(root, 'packages/benchmark/dist/.build-stamp');
export const STAMP = stampOf(ROOT);

/**
 * The newest modification time (ms) of the files a build reads, and the newest source file with
 * its time; tests are not run from dist.
 */
function newestInput(root) {
  let newest = 0;
  let newestSource = { path: '', time: 0 };
  const visit = (path) => {
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      // JavaScript sources too: tsc copies them (search-core's ONNX worker) into dist.
      else if (/\.[jt]s$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
        const time = statSync(child).mtimeMs;
        newest = Math.max(newest, time);
        if (time > newestSource.time && !entry.name.endsWith('.d.ts')) newestSource = { path: child, time };
      }
    }
  };
  for (const folder of packagesOf(root)) {
    visit(join(folder, 'src'));
    for (const file of ['tsconfig.json', 'package.json'])
      newest = Math.max(newest, mtime(join(folder, file)));
  }
  newest = Math.max(newest, mtime(join(root, 'tsconfig.base.json')), mtime(join(root, 'tsconfig.json')));
  return { newest, newestSource };
}

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

/**
 * Whether dist (or its CLI bundle) is missing or older than a source (a checkout without sources
 * is never stale).
 */
export function isStale(root = ROOT) {
  if (!existsSync(join(root, 'packages/benchmark/src'))) return false;
  if (!existsSync(join(root, 'packages/benchmark/dist/bundle/main.js'))) return true;
  return !existsSync(stampOf(root)) || newestInput(root).newest > mtime(stampOf(root));
}

/**
 * Whether a finished `tsc -b` left a stale build behind: it failed, and the newest source's
 * JavaScript is older than the source. A build that succeeded is current even when it wrote
 * nothing: tsc compares sources by content, so a file only touched (newer, the same text) is not
 * emitted again.
 */
export function refusesBuild({ status, sourceTime, emittedTime }) {
  return status !== 0 && sourceTime > 0 && emittedTime < sourceTime;
}

/** The sentence lme stops with when bin/bundle-cli.js failed, from what the bundler printed. */
export function bundleFailure(printed) {
  const reason =
    printed
      .trim()
      .replace(/^lme: /, '')
      .replace(/\.$/, '') || 'bundling the CLI failed';
  return `${reason}, so lme will not run a stale build (pnpm lme:dev runs the sources).`;
}

/**
 * Runs `tsc -b`, then bundles the CLI, when the build is stale (or always, with `force`); throws
 * when either fails.
 */
export function ensureBuilt({ force = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (!force && !isStale()) return false;
  if (!force) log('lme: sources changed since the last build; building (tsc -b)...');
  const started = Date.now();
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', '--pretty', 'false'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // tsc emits JavaScript even when it reports type errors (noEmitOnError is off): lme then runs
  // it, saying so. It refuses only when the newest source file was not emitted.
  const { newestSource } = newestInput(ROOT);
  const emitted = newestSource.path
    .replace(/([/\\]packages[/\\][^/\\]+[/\\])src([/\\])/, '$1dist$2')
    .replace(/\.ts$/, '.js');
  if (
    result.error ||
    refusesBuild({ status: result.status, sourceTime: newestSource.time, emittedTime: mtime(emitted) })
  ) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(
      `the TypeScript build did not emit ${emitted}, so lme will not run a stale build; fix the errors above, or run from source with pnpm lme:dev.`,
    );
  }
  if (result.status !== 0) {
    const errors = (result.stdout.match(/error TS\d+/g) ?? []).length;
    const first = result.stdout.split('\n').find((line) => line.includes('error TS')) ?? '';
    log(
      `lme: warning: tsc -b reported ${errors} type error(s), e.g. ${first.trim()}; the JavaScript was emitted and runs (pnpm typecheck lists them).`,
    );
  }
  // The CLI runs from one bundle of what tsc emitted (bin/bundle-cli.js): half the start-up time.
  const bundled = spawnSync(process.execPath, [join(ROOT, 'packages/benchmark/bin/bundle-cli.js')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (bundled.error || bundled.status !== 0)
    throw new Error(bundleFailure(bundled.stderr || bundled.error?.message || ''));
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  if (!force) log(`lme: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureBuilt({ force: process.argv.includes('--force') });
  } catch (error) {
    process.stderr.write(`lme: ${error.message}\n`);
    process.exitCode = 1;
  }
}

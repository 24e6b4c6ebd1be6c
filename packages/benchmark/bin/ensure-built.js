// Keeps packages/*/dist in step with the sources, so `lme` runs the built JavaScript (fast start)
// and never a stale build: when the sources' content hash (the one a run's fingerprint records) or
// a tsconfig or package.json differs from what the last build was made from, or the bundle is
// missing, empty or not lme's, `tsc -b` and then bin/bundle-cli.js run first (a failed build stops
// lme, naming why). Plain JavaScript with no dependencies: it must run before anything is built.
// As a script: `node ensure-built.js` builds when stale; `--force` always builds (pnpm build).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles, sourceHash } from './source-hash.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const packagesOf = (root) => ['search-core', 'benchmark'].map((name) => join(root, 'packages', name));
const stampOf = (root) => join(root, 'packages/benchmark/dist/.build-stamp');
export const STAMP = stampOf(ROOT);

/** The files a build reads besides the sources: the TypeScript configs and package manifests. */
function configFiles(root) {
  return [
    ...packagesOf(root).flatMap((folder) => [join(folder, 'tsconfig.json'), join(folder, 'package.json')]),
    join(root, 'tsconfig.base.json'),
    join(root, 'tsconfig.json'),
  ].filter((path) => existsSync(path));
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * What a build is keyed by: the sources' content hash (the one a run's fingerprint records as
 * `code`, source-hash.js) and the configs' content. Null without sources.
 */
export function buildKey(root = ROOT) {
  const code = sourceHash(join(root, 'packages'));
  if (code === null) return null;
  return `${code}:${sha256(
    configFiles(root)
      .map((path) => readFileSync(path))
      .join('\0'),
  )}`;
}

/**
 * A cheap summary of the build's input files (path, size, inode, change time): equal to the
 * stamp's, no file was written since the build (a write sets the change time, which tar, rsync -a
 * and cp -p cannot set back), so the contents need not be hashed again on every start.
 */
function inputsDigest(root) {
  const files = [...sourceFiles(join(root, 'packages')), ...configFiles(root)];
  return sha256(
    files
      .map((path) => {
        const stats = statSync(path, { bigint: true });
        return `${path}\0${stats.size}\0${stats.ino}\0${stats.ctimeNs}\0${stats.mtimeNs}`;
      })
      .join('\n'),
  );
}

const BUNDLE = (root) => join(root, 'packages/benchmark/dist/bundle/main.js');
/** The pointer bin/bundle-cli.js writes as dist/bundle/main.js. */
const POINTER = /^await import\('\.\/(build-[A-Za-z0-9_-]+)\/main\.js'\);\n$/;

function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(stampOf(root), 'utf8'));
    return typeof stamp?.key === 'string' ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why dist/bundle/main.js is not a build lme can run, as one sentence, or undefined: missing,
 * empty or not the pointer bin/bundle-cli.js writes (or not the one the last build wrote), or
 * pointing to a build folder that is gone or empty.
 */
export function bundleProblem(root = ROOT) {
  const path = BUNDLE(root);
  if (!existsSync(path)) return `${path} is missing`;
  const text = readFileSync(path, 'utf8');
  const pointer = POINTER.exec(text);
  const stamp = readStamp(root);
  if (pointer === null || (stamp?.bundle !== undefined && stamp.bundle !== sha256(text)))
    return `${path} is ${text.trim() === '' ? 'empty' : 'not the one lme’s last build wrote'}`;
  const target = join(dirname(path), pointer[1], 'main.js');
  if (!existsSync(target) || statSync(target).size === 0)
    return `${path} points to ${pointer[1]}/main.js, which is missing or empty`;
  return undefined;
}

/**
 * Whether dist must be built again: its bundle is not a sound build, or it was built from other
 * sources or configs than these (by content, not time; a checkout without sources is never stale).
 */
export function isStale(root = ROOT) {
  if (!existsSync(join(root, 'packages/benchmark/src'))) return false;
  const stamp = readStamp(root);
  if (stamp === undefined || bundleProblem(root) !== undefined) return true;
  const digest = inputsDigest(root);
  if (stamp.inputs === digest) return false;
  if (stamp.key !== buildKey(root)) return true;
  // The same content, written again (a checkout, a touch): remember it, so the next start is cheap.
  writeStamp(root, { ...stamp, inputs: digest });
  return false;
}

const changeTime = (path) => (existsSync(path) ? statSync(path).ctimeMs : 0);

/** The file among `paths` written last, with its change time. */
function lastWritten(paths) {
  let newest = { path: '', time: 0 };
  for (const path of paths) {
    const time = changeTime(path);
    if (time > newest.time) newest = { path, time };
  }
  return newest;
}

/**
 * Records that dist was built from `from` (the key and inputs' digest taken before the build
 * started) and holds this bundle.
 */
export function stampBuild(root = ROOT, from = { key: buildKey(root), inputs: inputsDigest(root) }) {
  const bundle = sha256(readFileSync(BUNDLE(root), 'utf8'));
  writeStamp(root, { ...from, bundle, built_at: new Date().toISOString() });
}

function writeStamp(root, stamp) {
  const temporary = `${stampOf(root)}.${process.pid}`;
  try {
    writeFileSync(temporary, `${JSON.stringify(stamp)}\n`);
    renameSync(temporary, stampOf(root));
  } catch {
    // A read-only checkout: the next start hashes the sources again.
  }
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
  if (!force) log(`lme: ${bundleProblem() ?? 'sources changed since the last build'}; building (tsc -b)...`);
  const started = Date.now();
  // Keyed by what the build starts from: a source edited while it runs makes the next start rebuild.
  const key = buildKey(ROOT);
  const inputs = key === null ? null : inputsDigest(ROOT);
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', '--pretty', 'false'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // tsc emits JavaScript even when it reports type errors (noEmitOnError is off): lme then runs
  // it, saying so. It refuses only when the source written last was not emitted (by change time,
  // which no copy sets back, unlike the modification time).
  const newestSource = lastWritten(
    sourceFiles(join(ROOT, 'packages')).filter((path) => /\.[jt]s$/.test(path) && !path.endsWith('.d.ts')),
  );
  const emitted = newestSource.path
    .replace(/([/\\]packages[/\\][^/\\]+[/\\])src([/\\])/, '$1dist$2')
    .replace(/\.ts$/, '.js');
  if (
    result.error ||
    refusesBuild({ status: result.status, sourceTime: newestSource.time, emittedTime: changeTime(emitted) })
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
  stampBuild(ROOT, { key, inputs });
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

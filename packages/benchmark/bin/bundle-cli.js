// Bundles the built CLI (dist/cli/main.js and the modules it imports, both packages' dist/) into
// dist/bundle/ (main.js, which loads the newest build's folder): a few files instead of about
// 560, so a process starts in about half the time (`lme run --help`: 0.67 s of CPU from
// dist/cli, 0.27 s bundled, on a 2-core machine). Each command stays its own chunk, loaded when
// asked for. Run by ensure-built.js after `tsc -b`.
//
// Two things keep the bundle behaving as the files it joins:
// - a module's import.meta.url and import.meta.dirname are its own file's, not the chunk's, so the
//   paths it makes from them (package.json, configs/, the bridges, the ONNX worker, createRequire)
//   point where they did;
// - a dependency that reads files beside its own code or loads native or WebAssembly code
//   (onnxruntime, tiktoken, gRPC, vega, ...) is not bundled: the chunk imports its file by a path
//   relative to the chunk, resolved as Node resolves it from the module that named it.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Packages bundled: plain JavaScript that reads no file of its own (the rest stay external). */
const BUNDLED = new Set([
  'commander',
  'zod',
  'yaml',
  'csv-stringify',
  'cli-progress',
  'string-width',
  'strip-ansi',
  'ansi-regex',
  'emoji-regex',
  'is-fullwidth-code-point',
  'p-limit',
  'yocto-queue',
  'p-retry',
  'is-network-error',
  'retry',
  'proper-lockfile',
  'graceful-fs',
  'adm-zip',
  'stemmer',
  '@lme/search-core',
]);

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const toPosix = (path) => path.split(sep).join('/');

/** A path from the bundle's folder to `file`, as an import or a URL names it. */
function fromBundle(outdir, file) {
  const path = toPosix(relative(outdir, file));
  return path.startsWith('.') ? path : `./${path}`;
}

/** Gives each module its own file's import.meta.url, dirname and filename, not the chunk's. */
const keepModulePaths = (outdir) => ({
  name: 'keep-module-paths',
  setup(bundle) {
    bundle.onLoad({ filter: /\.[jt]s$/ }, async ({ path }) => {
      if (/[/\\]node_modules[/\\]/.test(path)) return undefined;
      const source = await readFile(path, 'utf8');
      const url = `new URL(${JSON.stringify(fromBundle(outdir, path))}, import.meta.url)`;
      // Returned even when unchanged: esbuild would otherwise read the file a second time.
      const contents = source
        .replaceAll('import.meta.url', `${url}.href`)
        .replaceAll('import.meta.dirname', `__lmeDirname(${url})`)
        .replaceAll('import.meta.filename', `__lmeFilename(${url})`);
      return { contents, loader: path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
});

/** Leaves a dependency not in BUNDLED outside, imported by its resolved file's relative path. */
const externalDependencies = (outdir) => ({
  name: 'external-dependencies',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.pluginData?.resolving) return undefined;
      if (BUNDLED.has(packageName(args.path))) return undefined;
      const resolved = await bundle.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // A Node built-in named without `node:` stays as written.
      if (resolved.external) return { path: args.path, external: true };
      return { path: fromBundle(outdir, resolved.path), external: true };
    });
  },
});

/** Builds kept beside the current one: a process started from one of them may still load its chunks. */
const KEPT_BUILDS = 5;

/**
 * Bundles dist/ into a folder of its own, dist/bundle/<build>/, then points dist/bundle/main.js
 * at it (a one-line module, replaced by a rename): a process started from an earlier build keeps
 * finding that build's chunks, and two processes building at once each leave a whole build.
 * `entry` and `conditions` bundle something else than the build: a test's copy of the sources
 * (`src/cli/main.ts` under the `source` condition), as tsx would run them. Throws, naming the
 * error, when esbuild fails.
 */
export async function bundleCli({
  packageDir = PACKAGE_DIR,
  entry = 'dist/cli/main.js',
  conditions = [],
} = {}) {
  const bundleDir = join(packageDir, 'dist/bundle');
  mkdirSync(bundleDir, { recursive: true });
  const outdir = mkdtempSync(join(bundleDir, 'build-'));
  const id = basename(outdir);
  await build({
    entryPoints: { main: join(packageDir, entry) },
    conditions,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    define: { __filename: '__lmeBundledFilename', __dirname: '__lmeBundledDirname' },
    // A bundled CommonJS package's require() of a Node built-in, and the helpers that give each
    // module its own file's path.
    banner: {
      js: [
        "import { createRequire as __lmeCreateRequire } from 'node:module';",
        "import { fileURLToPath as __lmeFileURLToPath } from 'node:url';",
        'const require = __lmeCreateRequire(import.meta.url);',
        'const __lmeFilename = (url) => __lmeFileURLToPath(url);',
        "const __lmeDirname = (url) => __lmeFileURLToPath(new URL('.', url)).replace(/[\\\\/]$/, '');",
      ].join('\n'),
    },
    plugins: [keepModulePaths(outdir), externalDependencies(outdir)],
  });
  // An ES module has no __filename or __dirname: a bundled CommonJS package that reads them would
  // fail when it runs (write-file-atomic did), so it stays external. `define` renamed every read.
  for (const chunk of readdirSync(outdir)) {
    const found = readFileSync(join(outdir, chunk), 'utf8').match(/__lmeBundled(?:File|Dir)name/);
    if (found) {
      rmSync(outdir, { recursive: true, force: true });
      const name = found[0] === '__lmeBundledFilename' ? '__filename' : '__dirname';
      throw new Error(
        `${chunk} reads ${name}: leave the package that does out of BUNDLED (bin/bundle-cli.js).`,
      );
    }
  }
  const pointer = join(bundleDir, `.main-${id}.js`);
  writeFileSync(pointer, `await import('./${id}/main.js');\n`);
  renameSync(pointer, join(bundleDir, 'main.js'));
  const builds = readdirSync(bundleDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      path: join(bundleDir, entry.name),
      time: statSync(join(bundleDir, entry.name)).mtimeMs,
    }))
    .sort((a, b) => b.time - a.time);
  for (const old of builds.slice(KEPT_BUILDS))
    if (old.path !== outdir) rmSync(old.path, { recursive: true, force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await bundleCli();
  } catch (error) {
    process.stderr.write(`lme: bundling the CLI failed: ${error.message}\n`);
    process.exitCode = 1;
  }
}

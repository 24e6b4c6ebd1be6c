// Bundles the built CLI (dist/cli/main.js and the modules it imports, both packages' dist/) into
// dist/bundle/: a few files instead of about 560, so a process starts in about half the time
// (`lme run --help`: 0.67 s of CPU from dist/cli, 0.27 s bundled, on a 2-core machine). Each
// command stays its own chunk, loaded when asked for. Run by ensure-built.js after `tsc -b`.
//
// Two things keep the bundle behaving as the files it joins:
// - a module's import.meta.url and import.meta.dirname are its own file's, not the chunk's, so the
//   paths it makes from them (package.json, configs/, the bridges, the ONNX worker, createRequire)
//   point where they did;
// - a dependency that reads files beside its own code or loads native or WebAssembly code
//   (onnxruntime, tiktoken, gRPC, vega, ...) is not bundled: the chunk imports its file by a path
//   relative to the chunk, resolved as Node resolves it from the module that named it.
import { renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = join(PACKAGE_DIR, 'dist/bundle');

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
  'write-file-atomic',
  'signal-exit',
  'imurmurhash',
  'proper-lockfile',
  'graceful-fs',
  'adm-zip',
  'stemmer',
  '@lme/search-core',
]);

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const toPosix = (path) => path.split(sep).join('/');

/** Where a module's own file is, as an expression of the chunk's import.meta.url. */
function ownUrl(file) {
  // The chunks are written elsewhere first, but beside dist/bundle/: the same relative paths.
  const path = toPosix(relative(BUNDLE_DIR, file));
  return `new URL(${JSON.stringify(path.startsWith('.') ? path : `./${path}`)}, import.meta.url)`;
}

const keepModulePaths = {
  name: 'keep-module-paths',
  setup(bundle) {
    bundle.onLoad({ filter: /[/\\]dist[/\\].*\.js$|[/\\]bin[/\\].*\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const url = ownUrl(path);
      const contents = source
        .replaceAll('import.meta.url', `${url}.href`)
        .replaceAll('import.meta.dirname', `__lmeDirname(${url})`)
        .replaceAll('import.meta.filename', `__lmeFilename(${url})`);
      return { contents, loader: 'js' };
    });
  },
};

const externalDependencies = {
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
      const path = toPosix(relative(BUNDLE_DIR, resolved.path));
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};

/**
 * Writes dist/bundle/ afresh from dist/ (throws, naming the error, when esbuild fails). The chunks
 * go to a folder of this process first, renamed into place once whole: a second lme building at
 * the same time never finds half a bundle.
 */
export async function bundleCli() {
  const staging = join(PACKAGE_DIR, `dist/.bundle-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  await build({
    entryPoints: { main: join(PACKAGE_DIR, 'dist/cli/main.js') },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
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
    plugins: [keepModulePaths, externalDependencies],
  });
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  try {
    renameSync(staging, BUNDLE_DIR);
  } catch (error) {
    // Another process put its bundle, made from the same files, in place first.
    rmSync(staging, { recursive: true, force: true });
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await bundleCli();
  } catch (error) {
    process.stderr.write(`lme: bundling the CLI failed: ${error.message}\n`);
    process.exitCode = 1;
  }
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The browser builds inlined into the report, in load order (vega-lite and vega-embed need vega). */
const BUNDLES = [
  { name: 'vega', file: 'build/vega.min.js' },
  { name: 'vega-lite', file: 'build/vega-lite.min.js' },
  { name: 'vega-embed', file: 'build/vega-embed.min.js' },
] as const;

function packageDirectory(name: string): string {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(`The npm package ${name} is not installed (the HTML report inlines its browser build).`);
  }
  const marker = `/node_modules/${name}/`;
  const at = entry.replaceAll('\\', '/').lastIndexOf(marker);
  if (at < 0) throw new Error(`Cannot find the folder of the npm package ${name} from ${entry}.`);
  return entry.slice(0, at + marker.length);
}

/** The minified UMD builds of vega, vega-lite and vega-embed, read from node_modules. */
export function readVegaBundles(): { name: string; version: string; source: string }[] {
  return BUNDLES.map(({ name, file }) => {
    const directory = packageDirectory(name);
    const path = join(directory, file);
    let source: string;
    try {
      source = readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(
        `Cannot read ${path} (${(error as NodeJS.ErrnoException).code}), the ${name} browser build.`,
      );
    }
    const version = (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version: string })
      .version;
    return { name, version, source };
  });
}

/**
 * Bundles `<packageDir>/<entry>` (default: this package's dist/cli/main.js) into
 * `<packageDir>/dist/bundle/` (bin/bundle-cli.js); `conditions` are export conditions to resolve by.
 */
export function bundleCli(options?: {
  packageDir?: string;
  entry?: string;
  conditions?: string[];
}): Promise<void>;

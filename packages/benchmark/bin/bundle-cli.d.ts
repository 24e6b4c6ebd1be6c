/** Bundles `<packageDir>/dist/cli/main.js` into `<packageDir>/dist/bundle/` (bin/bundle-cli.js). */
export function bundleCli(packageDir?: string): Promise<void>;

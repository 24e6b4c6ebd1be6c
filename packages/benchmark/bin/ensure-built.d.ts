/** The stamp `ensureBuilt` writes after each build: the build key, the inputs' digest and the bundle's hash. */
export declare const STAMP: string;
/** What a build is keyed by: the sources' content hash (a run's fingerprint `code`) and the configs'; null without sources. */
export declare function buildKey(root?: string): string | null;
/** Why dist/bundle/main.js is not a build lme can run (one sentence), or undefined. */
export declare function bundleProblem(root?: string): string | undefined;
/** Whether dist must be built again: an unsound bundle, or built from other sources or configs (by content). */
export declare function isStale(root?: string): boolean;
/** Runs `tsc -b` and bundles the CLI when the build is stale (or always, with `force`); throws when either fails. */
export declare function ensureBuilt(options?: { force?: boolean; log?: (line: string) => void }): boolean;
/** Whether a finished `tsc -b` left a stale build: it failed and the newest source was not emitted. */
export declare function refusesBuild(build: {
  status: number | null;
  sourceTime: number;
  emittedTime: number;
}): boolean;
/** The sentence lme stops with when bin/bundle-cli.js failed, from what the bundler printed. */
export declare function bundleFailure(printed: string): string;
/** Records that dist was built from the given key and inputs' digest (default: the sources now) and holds its bundle. */
export declare function stampBuild(root?: string, from?: { key: string | null; inputs: string | null }): void;

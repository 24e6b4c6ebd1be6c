/** The stamp `ensureBuilt` writes after each build. */
export declare const STAMP: string;
/** Whether dist is missing or older than a source of the repository at `root` (default: this one). */
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

/** SHA-256 over lme's non-test sources under `packagesDir/<package>/src` and the lockfile beside it; null when there are none. */
export declare function sourceHash(packagesDir: string): string | null;
/** The files `sourceHash` reads, sorted; none when `packagesDir` holds no sources. */
export declare function sourceFiles(packagesDir: string): string[];

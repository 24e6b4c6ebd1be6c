/**
 * `lme` run straight from dist/ (`node packages/benchmark/dist/bundle/main.js`) after a source
 * changed would run the old code: say so. `bin/lme.js` rebuilds first and sets
 * LME_BUILD_CHECKED, so the check runs once; from source (tsx) there is nothing to check.
 */
export async function warnIfStaleBuild(): Promise<void> {
  if (!import.meta.url.includes('/dist/') || process.env.LME_BUILD_CHECKED === '1') return;
  const { isStale } = await import('../../bin/ensure-built.js');
  if (isStale())
    process.stderr.write(
      'lme: warning: this build (dist/) is older than the sources; pnpm lme (bin/lme.js) rebuilds it first.\n',
    );
}

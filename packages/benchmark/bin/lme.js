#!/usr/bin/env node
// The `lme` command: the built CLI (dist/bundle/, bin/bundle-cli.js), rebuilt first when it was
// built from other sources than these, or is missing, empty or not lme's.
import { bundleProblem, ensureBuilt } from './ensure-built.js';

try {
  ensureBuilt();
  // A copy without sources cannot rebuild: a bundle that is not a sound build is refused, never run.
  const problem = bundleProblem();
  if (problem !== undefined)
    throw new Error(
      `${problem}, so lme will not run it; reinstall lme or build it from its sources (pnpm build).`,
    );
  process.env.LME_BUILD_CHECKED = '1';
} catch (error) {
  process.stderr.write(`lme: ${error.message}\n`);
  process.exit(1);
}
await import('../dist/bundle/main.js');

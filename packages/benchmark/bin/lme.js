#!/usr/bin/env node
// The `lme` command: the built CLI (dist/bundle/, bin/bundle-cli.js), rebuilt first when the sources are newer than it.
import { ensureBuilt } from './ensure-built.js';

try {
  ensureBuilt();
  process.env.LME_BUILD_CHECKED = '1';
} catch (error) {
  process.stderr.write(`lme: ${error.message}\n`);
  process.exit(1);
}
await import('../dist/bundle/main.js');

import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';

export type Provenance = {
  argv: string[];
  git: { commit: string | null; dirty: boolean | null };
  versions: Record<string, string>;
  node: string;
  started_at: string;
};

/** lme's own checkout: the folder above `packages/` (src/run and dist/run sit three levels under it). */
export const LME_CHECKOUT = resolve(import.meta.dirname, '../../../../..');

function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

const canonical = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/**
 * The commit and dirty flag of lme's own checkout, whatever the current directory: asked of git in
 * `checkout`, and kept only when that folder is the top of its repository (an lme installed in
 * another project's node_modules is no checkout of lme: null, never that project's commit).
 */
export function lmeGitState(checkout: string = LME_CHECKOUT): Provenance['git'] {
  const top = git(['rev-parse', '--show-toplevel'], checkout);
  if (top === null || canonical(top) !== canonical(checkout)) return { commit: null, dirty: null };
  const commit = git(['rev-parse', 'HEAD'], checkout);
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no'], checkout);
  return { commit, dirty: status === null ? null : status.length > 0 };
}

function packageVersion(url: URL): string {
  try {
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Where a run came from: enough to reproduce it. Holds no environment values, so no secrets. */
export function collectProvenance(argv: readonly string[]): Provenance {
  return {
    argv: [...argv],
    git: lmeGitState(),
    versions: {
      '@lme/benchmark': packageVersion(new URL('../../../package.json', import.meta.url)),
      '@lme/search-core': packageVersion(new URL('../../../../search-core/package.json', import.meta.url)),
      // The runtime of hf: embedders: its kernels decide the last digits of a vector.
      'onnxruntime-node': packageVersion(
        new URL('../../../../search-core/node_modules/onnxruntime-node/package.json', import.meta.url),
      ),
    },
    node: process.version,
    started_at: new Date().toISOString(),
  };
}

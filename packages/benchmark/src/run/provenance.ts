import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export type Provenance = {
  argv: string[];
  git: { commit: string | null; dirty: boolean | null };
  versions: Record<string, string>;
  node: string;
  started_at: string;
};

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
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
  const commit = git(['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no']);
  return {
    argv: [...argv],
    git: { commit, dirty: status === null ? null : status.length > 0 },
    versions: {
      '@lme/benchmark': packageVersion(new URL('../../package.json', import.meta.url)),
      '@lme/search-core': packageVersion(new URL('../../../search-core/package.json', import.meta.url)),
      // The runtime of hf: embedders: its kernels decide the last digits of a vector.
      'onnxruntime-node': packageVersion(
        new URL('../../../search-core/node_modules/onnxruntime-node/package.json', import.meta.url),
      ),
    },
    node: process.version,
    started_at: new Date().toISOString(),
  };
}

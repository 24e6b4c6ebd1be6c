import {
  clearCompletionCache,
  clearEmbeddingCache,
  readCompletionCacheStats,
  readEmbeddingCacheStats,
  upgradeEmbeddingCache,
  verifyEmbeddingCache,
} from '@lme/search-core';
import { Command } from 'commander';
import { runOptionOf } from '../config/run-options.js';
import { renderMarkdownTable } from '../results/markdown-table.js';
import { folderSetting, helpOf } from './run-option-flags.js';

type CacheOptions = { cacheDir?: string; embedder?: string };

/** `--cache-dir`, else LME_CACHE_DIR, else the default, as `lme run` reads it (config/run-options.ts). */
const cacheDirOf = (options: { cacheDir?: string }) => folderSetting('cacheDir', options.cacheDir);

const CACHE_DIR_HELP = helpOf(runOptionOf('cacheDir')!);
const UPGRADE_HINT = 'run `lme cache upgrade` to verify them and convert them to the checksummed format';
/** Rejected or corrupt records listed before "… and N more". */
const LISTED = 20;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function listLines(lines: readonly string[]): string {
  const shown = lines.slice(0, LISTED).map((line) => `  ${line}\n`);
  if (lines.length > LISTED) shown.push(`  … and ${lines.length - LISTED} more\n`);
  return shown.join('');
}

export function cacheCommand(): Command {
  const cache = new Command('cache').description(
    'inspect, verify, upgrade or clear the embedding and LLM caches',
  );
  cache
    .command('stats')
    .description('vectors per embedder, and LLM completions')
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .action(async (options: CacheOptions) => {
      const dir = cacheDirOf(options);
      const stats = await readEmbeddingCacheStats({ dir });
      const completions = await readCompletionCacheStats({ dir });
      const body = stats.embedders.map((entry) => [
        entry.embedderId,
        String(entry.dimensions),
        String(entry.vectors),
        String(entry.segments),
        String(entry.legacyVectors),
        mib(entry.bytes),
      ]);
      const header = ['embedder', 'dimensions', 'vectors', 'segments', 'legacy vectors', 'size'];
      process.stdout.write(
        `${stats.dir}\n\n${renderMarkdownTable(header, body)}\n` +
          `total ${stats.vectors} vectors, ${mib(stats.bytes)}` +
          (stats.tempFiles > 0 ? `; ${stats.tempFiles} unfinished temporary files` : '') +
          (stats.invalidFiles > 0 ? `; ${stats.invalidFiles} unreadable files` : '') +
          (stats.corruptFiles > 0
            ? `; ${stats.corruptFiles} corrupt segments set aside (removed by clear)`
            : '') +
          '\n' +
          (stats.legacyVectors > 0
            ? `${stats.legacyVectors} vectors are in legacy segments without checksums, which runs do not read: ${UPGRADE_HINT}.\n`
            : '') +
          `LLM completions: ${completions.entries} entries, ${mib(completions.bytes)} (${completions.dir})\n`,
      );
    });
  cache
    .command('verify')
    .description('read every segment and record and check their checksums; exits 1 if anything is corrupt')
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--embedder <name>', 'only this embedder, e.g. local:use-lite')
    .action(async (options: CacheOptions) => {
      const result = await verifyEmbeddingCache({ dir: cacheDirOf(options), embedderId: options.embedder });
      const body = result.embedders.map((entry) => [
        entry.embedderId,
        String(entry.verifiedVectors),
        String(entry.corruptVectors),
        String(entry.corruptSegments),
        String(entry.legacyVectors),
        String(entry.setAside),
      ]);
      const header = ['embedder', 'verified', 'corrupt records', 'corrupt segments', 'legacy', 'set aside'];
      let text = `${result.dir}\n\n${renderMarkdownTable(header, body)}\n`;
      const problems = result.embedders.flatMap((entry) => entry.problems);
      if (problems.length > 0) text += `corrupt:\n${listLines(problems)}`;
      if (result.legacySegments > 0) {
        text += `${result.legacySegments} legacy segments have no checksum and are not read by runs: ${UPGRADE_HINT}.\n`;
      }
      process.stdout.write(text);
      if (result.corruptSegments > 0) {
        process.stderr.write(
          `lme cache verify: ${result.corruptSegments} corrupt segments; runs set them aside and embed their texts again.\n`,
        );
        process.exitCode = 1;
      }
    });
  cache
    .command('upgrade')
    .description(
      'rewrite legacy segments (no checksum) in the checksummed format, dropping non-finite or non-unit vectors',
    )
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--embedder <name>', 'only this embedder, e.g. local:use-lite')
    .option('--no-unit-norm', 'keep vectors of any norm (for an embedder that does not L2-normalise)')
    .action(async (options: CacheOptions & { unitNorm: boolean }) => {
      const entries = await upgradeEmbeddingCache({
        dir: cacheDirOf(options),
        embedderId: options.embedder,
        checkUnitNorm: options.unitNorm,
      });
      if (entries.length === 0) process.stdout.write('no legacy segments: nothing to upgrade\n');
      for (const entry of entries) {
        process.stdout.write(
          `${entry.embedderId}: ${entry.segments} segments upgraded, ${entry.vectors} vectors kept, ${entry.rejected.length} rejected (embedded again when needed)\n` +
            listLines(entry.rejected) +
            (entry.unreadable.length > 0
              ? `unreadable legacy segments (left in place):\n${listLines(entry.unreadable)}`
              : ''),
        );
      }
      if (entries.some((entry) => entry.unreadable.length > 0)) process.exitCode = 1;
    });
  cache
    .command('clear')
    .description(
      'delete cached vectors (all, or one embedder) and, unless --embedder is given, LLM completions',
    )
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--embedder <name>', 'only this embedder, e.g. local:use-lite')
    .action(async (options: CacheOptions) => {
      const dir = cacheDirOf(options);
      const { files, bytes } = await clearEmbeddingCache({ dir, embedderId: options.embedder });
      let text = `removed ${files} embedding files, ${mib(bytes)}`;
      if (options.embedder === undefined) {
        const completions = await clearCompletionCache({ dir });
        text += `; ${completions.entries} LLM completions, ${mib(completions.bytes)}`;
      }
      process.stdout.write(`${text}\n`);
    });
  return cache;
}

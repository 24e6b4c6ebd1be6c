import { join } from 'node:path';
import type { OnnxEmbedderOptions } from '@lme/search-core';
import { chooseModel, loadModelCatalog, type ModelCatalog, modelCacheIdentity } from './model-catalog.js';
import { prepareStoreFolder } from './model-fetchers.js';
import { createModelStore, type ModelStore } from './model-store.js';

export type ModelStoreSettings = {
  /** The run's cache folder; fetched models live in `<cacheDir>/models`. */
  cacheDir: string;
  modelDir?: string | undefined;
  /** The hub's address; default LME_HUB_URL, then the catalog's. */
  hubUrl?: string | undefined;
  onMessage?: (message: string) => void;
};

/** The model store a run or `lme models` uses. */
export function openModelStore(
  catalog: ModelCatalog,
  settings: ModelStoreSettings,
  environment: NodeJS.ProcessEnv = process.env,
): ModelStore {
  return createModelStore({
    storeDir: join(settings.cacheDir, 'models'),
    modelDir: settings.modelDir,
    hubUrl: settings.hubUrl ?? environment['LME_HUB_URL'] ?? catalog.hubUrl,
    onMessage: settings.onMessage,
  });
}

/**
 * What `hf:<model>` means for search-core's embedder registry: the catalogued model, its cache
 * identity, and its files (found on disk, else fetched, on first use).
 */
export function onnxModelResolver(
  settings: ModelStoreSettings,
  catalogPath?: string,
): (model: string) => Omit<OnnxEmbedderOptions, 'threads'> {
  return (model) => {
    // Read when an hf: embedder is asked for, so other embedders never depend on the catalog.
    const catalog = loadModelCatalog(catalogPath);
    const store = openModelStore(catalog, settings);
    const choice = chooseModel(catalog, model);
    return {
      id: choice.name,
      cacheIdentity: modelCacheIdentity(choice),
      dimensions: choice.model.dimensions,
      pooling: choice.model.pooling,
      maxTokens: choice.model.maxTokens,
      queryPrefix: choice.model.queryPrefix,
      documentPrefix: choice.model.documentPrefix,
      files: () => store.obtain(choice),
    };
  };
}

/**
 * Checks the copy of an hf: model already on disk before a run starts: a file in --model-dir that
 * is not the pinned one (a wrong size or SHA-256: corrupted, truncated, another revision) is an
 * error naming it here, not once per question; a wrong copy in the store is removed (fetched again);
 * a model to fetch needs a store folder lme can write (a read-only --cache-dir stops the run here).
 */
export async function checkModelOnDisk(
  settings: ModelStoreSettings,
  model: string,
  catalogPath?: string,
): Promise<void> {
  const catalog = loadModelCatalog(catalogPath);
  const found = await openModelStore(catalog, settings).locate(chooseModel(catalog, model));
  // Not on disk yet: it is fetched at the first question, into a folder that must take it.
  if (!found) await prepareStoreFolder(join(settings.cacheDir, 'models'));
}

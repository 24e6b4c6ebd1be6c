import type { CreateEmbedderOptions, Embedder } from '@lme/search-core';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** What the rest of the program asks of an embedder family instead of its name. */
export type EmbedderCapabilities = {
  /** How its names look, for help and errors (`hf:<owner>/<model>[@<dtype>]`). */
  readonly form: string;
  /** It reads model files (fetched into the model store, or from `--model-dir`): preflight checks them, the fingerprint hashes them. */
  readonly modelFiles: boolean;
  /** It runs in this process on threads of its own (`--embed-threads`). */
  readonly threads: boolean;
  /** Memory one of its threads holds, about (a copy of the model each): `--embed-threads` is bounded by it. */
  readonly threadBytes?: number;
  /** It calls a hosted endpoint: preflight checks it and its key, the dry run prices it. */
  readonly hosted: boolean;
  /** Environment variables holding its credentials (names only, never values). */
  readonly apiKeyEnv?: readonly string[];
};

/** Where an ONNX model's files are looked for: `--model-dir` (a folder the user filled), else the model store. */
export type ModelFilesSettings = { modelDir?: string | undefined };

/** What the pipeline hands an embedder family's factory. */
export type EmbedderDependencies = {
  /** The run's OpenAI-compatible endpoint (`--base-url`, the key, `--max-retries`, `--timeout`). */
  openAiEndpoint: () => Pick<CreateEmbedderOptions, 'baseURL' | 'apiKey' | 'maxRetries' | 'timeoutMs'>;
  /** The files and settings of an ONNX model of configs/models.json (the model store's, or `modelDir`'s). */
  onnxModels: (settings: ModelFilesSettings) => NonNullable<CreateEmbedderOptions['resolveOnnxModel']>;
};

/** What preflight hands an embedder family's `check`. */
export type EmbedderCheckDependencies = {
  /** Refuses a model whose files are neither in `modelDir` nor in the model store, nor fetchable. */
  checkModelFiles: (settings: ModelFilesSettings, model: string) => Promise<void>;
};

/**
 * One embedder family `--embedder <family>:<model>` can name: a folder
 * `components/embedders/<family>/` and a registry line. `create` gets the part after `<family>:`
 * and returns undefined when that part is not a name of the family (the caller names the forms).
 */
export type EmbedderDescriptor<O extends ComponentOptions = ComponentOptions> = ComponentDescriptor<
  O,
  EmbedderCapabilities
> & {
  create(model: string, options: OptionValues<O>, dependencies: EmbedderDependencies): Embedder | undefined;
  /** What preflight checks before the first question, beyond creating it (model files on disk). */
  check?(model: string, options: OptionValues<O>, dependencies: EmbedderCheckDependencies): Promise<void>;
};

/** Declares an embedder family, keeping its options' types. */
export const defineEmbedder = <const O extends ComponentOptions>(descriptor: EmbedderDescriptor<O>) =>
  descriptor;

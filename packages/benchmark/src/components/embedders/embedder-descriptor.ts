import type { CreateEmbedderOptions, Embedder } from '@lme/search-core';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** What the rest of the program asks of an embedder family instead of its name. */
export type EmbedderCapabilities = {
  /** How its names look, for help and errors (`hf:<owner>/<model>[@q8]`). */
  readonly form: string;
  /** It reads model files (fetched into the model store, or from `--model-dir`). */
  readonly modelFiles: boolean;
  /** It runs in this process on threads of its own (`--embed-threads`). */
  readonly threads: boolean;
  /** It calls a hosted endpoint: preflight checks it, the dry run prices it. */
  readonly hosted: boolean;
  /** Environment variables holding its credentials (names only, never values). */
  readonly apiKeyEnv?: readonly string[];
};

/** What the pipeline hands an embedder family's factory. */
export type EmbedderDependencies = {
  /** The run's OpenAI-compatible endpoint (`--base-url`, the key, `--max-retries`, `--timeout`). */
  openAiEndpoint: () => Pick<CreateEmbedderOptions, 'baseURL' | 'apiKey' | 'maxRetries' | 'timeoutMs'>;
  /** The files and settings of an ONNX model of configs/models.json (the model store's). */
  resolveOnnxModel: NonNullable<CreateEmbedderOptions['resolveOnnxModel']>;
  maxRetries: number;
};

/**
 * One embedder family `--embedder <family>:<model>` can name: a folder
 * `components/embedders/<family>/` and a registry line. `create` gets the part after `<family>:`.
 */
export type EmbedderDescriptor<O extends ComponentOptions = ComponentOptions> = ComponentDescriptor<
  O,
  EmbedderCapabilities
> & {
  create(model: string, options: OptionValues<O>, dependencies: EmbedderDependencies): Embedder;
};

/** Declares an embedder family, keeping its options' types. */
export const defineEmbedder = <const O extends ComponentOptions>(descriptor: EmbedderDescriptor<O>) =>
  descriptor;

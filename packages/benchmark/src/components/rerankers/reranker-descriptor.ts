import type { CandidateReranker, RerankerFactoryOptions } from '@lme/search-core';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** What the rest of the program asks of a reranker family instead of its name. */
export type RerankerCapabilities = {
  /** How its ids look, for help and errors (`llm:<model>`). */
  readonly form: string;
  /** It calls a chat model (the dry run prices it; preflight needs a key). */
  readonly chatModel: boolean;
  /** It calls a server of its own (`http:<url>`): preflight checks it. */
  readonly server: boolean;
};

/** What the pipeline hands a reranker family's factory. */
export type RerankerDependencies = {
  /** The run's OpenAI-compatible endpoint for chat models. */
  chat: () => NonNullable<RerankerFactoryOptions['chat']>;
  /** The completion cache folder, when the cache is on. */
  cacheDir: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  environment: Readonly<Record<string, string | undefined>>;
};

/**
 * One reranker family `--reranker <family>:<argument>` can name: a folder
 * `components/rerankers/<family>/` and a registry line. `create` gets the part after `<family>:`.
 */
export type RerankerDescriptor<O extends ComponentOptions = ComponentOptions> = ComponentDescriptor<
  O,
  RerankerCapabilities
> & {
  create(argument: string, options: OptionValues<O>, dependencies: RerankerDependencies): CandidateReranker;
};

/** Declares a reranker family, keeping its options' types. */
export const defineReranker = <const O extends ComponentOptions>(descriptor: RerankerDescriptor<O>) =>
  descriptor;

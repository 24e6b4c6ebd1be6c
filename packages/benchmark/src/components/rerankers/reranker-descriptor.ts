import type { CandidateReranker, RerankerFactoryOptions } from '@lme/search-core';
import type { z } from 'zod';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** What the rest of the program asks of a reranker family instead of its name. */
export type RerankerCapabilities = {
  /** How its ids look, for help and errors (`llm:<model>`). */
  readonly form: string;
  /** It calls a chat model at the run's OpenAI-compatible endpoint (the dry run prices it; preflight probes the endpoint). */
  readonly chatModel: boolean;
  /** It calls a server of its own (`http:<url>`): preflight probes it (`server`). */
  readonly server: boolean;
};

/** What the pipeline hands a reranker family's factory. */
export type RerankerDependencies = {
  /** The run's OpenAI-compatible endpoint for chat models, with the completion cache. */
  chat: () => NonNullable<RerankerFactoryOptions['chat']>;
  /** The completion cache folder, when the cache is on. */
  cacheDir: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  environment: Readonly<Record<string, string | undefined>>;
  /** A URL checked as an endpoint (no credentials, no query string), naming `source` when it is not. */
  checkEndpointUrl: (url: string, source: string) => string;
  /** Adds a key to the secrets redacted from every output. */
  addSecret: (value: string | undefined) => void;
};

/** A server a run calls, as preflight probes it (a GET costing nothing): a reranker's, or an LLM endpoint. */
export type RerankerServer = {
  /** `the reader (gpt-4o-mini)`, `the reranker (rerank-v3)`. */
  who: string;
  /** The flag or variable that set the URL, with the URL (never a key): `--reranker http:https://host/v1`. */
  named: string;
  url: string;
  headers: Record<string, string>;
  secrets: string[];
  /** How to fix refused credentials: the variables or flag holding them. */
  keyHint: string;
};

/** One question's rerank, as the dry run sizes it: candidates, and tokens of one candidate and of the question. */
export type RerankCallSize = { depth: number; candidateTokens: number; queryTokens: number };

/** The calls and tokens one question's rerank would spend (`--dry-run`). */
export type RerankCallPlan = { calls: number; promptTokens: number; completionTokens: number };

/**
 * One reranker family `--reranker <family>:<argument>` can name: a folder
 * `components/rerankers/<family>/` and a registry line. `create` gets the part after `<family>:`.
 */
export type RerankerDescriptor<O extends ComponentOptions = ComponentOptions> = ComponentDescriptor<
  O,
  RerankerCapabilities
> & {
  create(argument: string, options: OptionValues<O>, dependencies: RerankerDependencies): CandidateReranker;
  /** The argument's rule, checked when the config is parsed (config.json stores the id), and its sentence. */
  argument?: { readonly schema: z.ZodType; readonly message: string };
  /** The model it calls, as priced in samples.jsonl usage (undefined: it calls none). */
  pricedModel(argument: string, options: OptionValues<O>): string | undefined;
  /** The calls and tokens of one question (`--dry-run`); absent: it calls no model and costs nothing. */
  planCalls?(size: RerankCallSize): RerankCallPlan;
  /** The server it calls (capabilities.server), for preflight's probe. */
  probe?(
    argument: string,
    options: OptionValues<O>,
    dependencies: Pick<RerankerDependencies, 'environment' | 'checkEndpointUrl'>,
  ): RerankerServer;
};

/** Declares a reranker family, keeping its options' types. */
export const defineReranker = <const O extends ComponentOptions>(descriptor: RerankerDescriptor<O>) =>
  descriptor;

import type { ComponentOptions } from '../component.js';
import type { RetrieverCapabilities, RetrieverDescriptor } from './retriever-descriptor.js';
import { RETRIEVERS, type RetrieverName } from './retriever-registry.js';

/** A retriever's descriptor as the rest of the program reads it (options by key). */
export type AnyRetriever = RetrieverDescriptor<ComponentOptions, RetrieverCapabilities>;

/** Every name `--retriever` takes, in registry order (the first is the default). */
export const RETRIEVER_NAMES = Object.keys(RETRIEVERS) as [RetrieverName, ...RetrieverName[]];

/** The descriptor of a retriever name the run config accepted. */
export const retrieverNamed = (name: RetrieverName): AnyRetriever => RETRIEVERS[name];

/** The names of the retrievers whose descriptor passes `test`, in registry order. */
export const retrieversWhere = (test: (descriptor: AnyRetriever) => boolean): RetrieverName[] =>
  RETRIEVER_NAMES.filter((name) => test(retrieverNamed(name)));

/** `a, b or c` (`and` when every one is meant). */
export function listNames(names: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

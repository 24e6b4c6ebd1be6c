import type { EmbedderDescriptor } from '../components/embedders/embedder-descriptor.js';
import { EMBEDDERS } from '../components/embedders/embedder-registry.js';
import type { RerankerDescriptor } from '../components/rerankers/reranker-descriptor.js';
import { RERANKERS } from '../components/rerankers/reranker-registry.js';
import { closeNames } from './close-names.js';

/**
 * An embedder or reranker id (`hf:Xenova/e5-small-v2`, `http:https://host/v1`) split at its first
 * colon into the family that names a descriptor and the part its factory gets.
 */
function split(id: string): { family: string; rest: string } {
  const colon = id.indexOf(':');
  return colon < 0 ? { family: id, rest: '' } : { family: id.slice(0, colon), rest: id.slice(colon + 1) };
}

/** `hf:Xenova/bge-small-en-v1.5` → `hf`; `http:https://host/v1` → `http`. */
export const familyOf = (id: string): string => split(id).family;

/** The forms a registry's families take (`local:use-lite, hf:<owner>/<model>[@<dtype>], …`). */
const formsOf = (registry: Readonly<Record<string, { capabilities: { form: string } }>>) =>
  Object.values(registry).map((descriptor) => descriptor.capabilities.form);

/** `; did you mean "hf:Xenova/x"?` for a family a few edits from a known one (`hg:` → `hf:`). */
function didYouMean(family: string, rest: string, families: readonly string[]): string {
  const close = family ? closeNames(family, families, 1)[0] : undefined;
  return close ? `; did you mean "${close}:${rest}"?` : '';
}

/** The embedder families' name forms, for help and errors. */
export const embedderForms = (): string[] => formsOf(EMBEDDERS);

/** The family descriptor an embedder id names, or undefined for an unknown family (nothing thrown). */
export function embedderFamily(id: string): EmbedderDescriptor | undefined {
  const { family } = split(id);
  return Object.hasOwn(EMBEDDERS, family)
    ? (EMBEDDERS[family as keyof typeof EMBEDDERS] as EmbedderDescriptor)
    : undefined;
}

/**
 * The family descriptor an embedder id names and its model (the part after `<family>:`). An
 * unknown family is refused in one sentence, with the nearest family and the known forms.
 */
export function resolveEmbedder(id: string): { descriptor: EmbedderDescriptor; model: string } {
  const { family, rest } = split(id);
  if (!Object.hasOwn(EMBEDDERS, family))
    throw unknownEmbedder(id, didYouMean(family, rest, Object.keys(EMBEDDERS)));
  return { descriptor: EMBEDDERS[family as keyof typeof EMBEDDERS] as EmbedderDescriptor, model: rest };
}

/** `Unknown embedder "bogus:x". Known: local:use-lite, hf:…` (what a family's factory refusing a model gets too). */
export function unknownEmbedder(id: string, suggestion = ''): Error {
  return new Error(
    `Unknown embedder "${id}"${suggestion}${suggestion ? ' Known' : '. Known'}: ${embedderForms().join(', ')} (e.g. openai:text-embedding-3-small).`,
  );
}

/** The family descriptor a reranker id names and its argument; an unknown family is one sentence. */
export function resolveReranker(id: string): { descriptor: RerankerDescriptor; argument: string } {
  const { family, rest } = split(id);
  if (!Object.hasOwn(RERANKERS, family) || rest === '') {
    const suggestion = Object.hasOwn(RERANKERS, family)
      ? ''
      : didYouMean(family, rest, Object.keys(RERANKERS));
    throw new Error(`Unknown reranker "${id}"${suggestion}; known: ${formsOf(RERANKERS).join(', ')}.`);
  }
  return { descriptor: RERANKERS[family as keyof typeof RERANKERS] as RerankerDescriptor, argument: rest };
}

import { defineEmbedder } from '../embedders/embedder-descriptor.js';
import { EMBEDDERS } from '../embedders/embedder-registry.js';
import { defineReranker } from '../rerankers/reranker-descriptor.js';
import { RERANKERS } from '../rerankers/reranker-registry.js';
import { defineRetriever } from '../retrievers/retriever-descriptor.js';
import { RETRIEVERS } from '../retrievers/retriever-registry.js';
import { defineStage } from '../stages/stage-descriptor.js';
import { STAGES } from '../stages/stage-registry.js';
import { componentKind, type PluginKind } from './plugin-kind.js';

/** A family is named in an id split at its first `:` and joined by `+` (`hf:a+my-family:b`). */
const familyLacks: PluginKind['lacks'] = (family) => {
  if (/[:+]/.test(family.name as string)) return 'has ":" or "+" in its name, which ids split at';
  const form = (family.capabilities as { form?: unknown }).form;
  return typeof form === 'string' ? undefined : 'needs capabilities.form, how its ids look';
};

/** The components' kinds a plugin may bring, one line each (their registries are in components/). */
export const COMPONENT_PLUGIN_KINDS = {
  retrievers: componentKind('retriever', RETRIEVERS, { defineRetriever }, ['create']),
  stages: componentKind('stage', STAGES, { defineStage }, ['create', 'provenance'], (stage) =>
    Object.hasOwn(stage.options as object, stage.switch as string)
      ? undefined
      : 'has no option named by its switch',
  ),
  embedders: componentKind('embedder family', EMBEDDERS, { defineEmbedder }, ['create'], familyLacks),
  rerankers: componentKind(
    'reranker family',
    RERANKERS,
    { defineReranker },
    ['create', 'pricedModel'],
    familyLacks,
  ),
} as const satisfies Record<string, PluginKind>;

import { z } from 'zod';
import type { RerankerDescriptor } from '../../rerankers/reranker-descriptor.js';
import { RERANKERS } from '../../rerankers/reranker-registry.js';
import { defineStage } from '../stage-descriptor.js';

/** An id of the first family that calls no model or server, from its form (docs and tests turn the stage on with it). */
function offlineId(): string {
  const offline = Object.values(RERANKERS).find(
    (family) => !family.capabilities.chatModel && !family.capabilities.server,
  );
  return offline!.capabilities.form.split(',')[0]!.replace(/\[.*?\]/g, '');
}

/**
 * `--reranker <id>`: the rerank stage after the base retriever and the pool stages
 * (docs/retrieval-stages.md): the top `--rerank-depth` hits of the final ranking are reranked by the
 * reranker the id names (components/rerankers/, each family's own options there); a base that
 * reranks its own candidates (session-aware) does so before its final cut.
 */
export const rerankingStage = defineStage({
  name: 'reranking',
  description: 'rerank the top hits of the final ranking with a reranker of components/rerankers/',
  options: {
    reranker: {
      schema: z
        .string()
        .min(3)
        // config.json stores the id: a family's argument is held to its rule (an http: URL: no key in it).
        .superRefine((value, context) => {
          const colon = value.indexOf(':');
          const family = value.slice(0, colon);
          const rule =
            colon > 0 && Object.hasOwn(RERANKERS, family)
              ? (RERANKERS[family as keyof typeof RERANKERS] as RerankerDescriptor).argument
              : undefined;
          if (rule && !rule.schema.safeParse(value.slice(colon + 1)).success)
            context.addIssue({ code: 'custom', message: rule.message });
        })
        .optional(),
      flags: '--reranker <id>',
      group: 'stages',
      help: `rerank the top --rerank-depth hits: ${Object.values(RERANKERS)
        .map((reranker) => reranker.capabilities.form)
        .join(', ')}`,
      defaultHelp: 'off',
    },
  },
  capabilities: { runsOn: 'pipeline', at: 'ranking', order: 100, needsVectors: false },
  switch: 'reranker',
  switchOn: { value: offlineId(), is: (value) => value !== undefined },
  create: (options, parts) => ({ reranker: parts.reranker(options.reranker!) }),
  provenance: (options) => `rerank (${options.reranker})`,
});

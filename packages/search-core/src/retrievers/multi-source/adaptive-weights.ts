import { extractEntities } from '../../query/query-entities.js';

export type SourceName = 'memory' | 'graph' | 'context';
export type SourceWeights = Record<SourceName, number>;

/** Base weights: stored memory leads, the graph and the recent conversation add to it. */
export const DEFAULT_SOURCE_WEIGHTS: SourceWeights = { memory: 0.6, graph: 0.25, context: 0.15 };

/** Words that point back into the conversation rather than name something. */
const PRONOUN = /\b(that|it|this|those|these|he|she|him|her|they|them|there)\b/i;

export type AdaptiveWeights = {
  weights: SourceWeights;
  /** What moved a weight, e.g. `pronoun "that" → context ×2`, `name "Paris" → graph ×1.5`. */
  cues: string[];
  /** The query's entities (searched in the graph). */
  entities: string[];
};

/**
 * Weights the sources by query cues: a pronoun ("that", "it", …) doubles the conversation
 * source, a specific name (a capitalised or quoted entity) multiplies the graph by 1.5. The
 * weights are then scaled to sum to 1.
 */
export function adaptiveWeights(query: string, base: Partial<SourceWeights> = {}): AdaptiveWeights {
  const weights = { ...DEFAULT_SOURCE_WEIGHTS, ...base };
  const cues: string[] = [];
  const pronoun = PRONOUN.exec(query);
  if (pronoun) {
    weights.context *= 2;
    cues.push(`pronoun "${pronoun[1]}" → context ×2`);
  }
  const found = extractEntities(query, []);
  const name = found.find((entity) => entity.source === 'name' || entity.source === 'quoted');
  if (name) {
    weights.graph *= 1.5;
    cues.push(`name "${name.entity}" → graph ×1.5`);
  }
  const total = weights.memory + weights.graph + weights.context;
  if (total > 0) for (const key of Object.keys(weights) as SourceName[]) weights[key] /= total;
  return { weights, cues, entities: found.map((entity) => entity.entity) };
}

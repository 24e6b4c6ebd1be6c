import { type CachedEmbedder, estimateCost, loadPriceTable } from '@lme/search-core';
import { buildCorpus } from '../../benchmarks/build-corpus.js';
import { isAbstention, type LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { stagesProvenance } from '../../components/stages/stage-registry.js';
import {
  contextualizesWithLlm,
  embeds,
  judges,
  readsAndJudges,
  summarizesWithLlm,
  usesPipeline,
} from '../../config/run-shape.js';
import { countTokens } from '../../metrics/truncate-tokens.js';
import { createConfiguredEmbedder } from '../../providers/pipeline/configured-embedder.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { checkAnswerSource } from '../checks/check-answer-source.js';
import { type IngestPlan, planIngest } from './plan-ingest.js';
import { type LlmPlan, planJudge, planReader, planSummaries, type UnpricedPlan } from './plan-llm.js';
import { planRerank } from './plan-rerank.js';

export type { LlmPlan } from './plan-llm.js';

/**
 * The config a plan reads: the whole run's settings, as the embedder factory, the rerank plan and
 * the corpus builder each take them (the LLM roles' plans take their sections, plan-llm.ts).
 */
export type PlannedConfig = Parameters<typeof createConfiguredEmbedder>[0] &
  Parameters<typeof planRerank>[0] &
  Parameters<typeof embeds>[0] &
  Parameters<typeof contextualizesWithLlm>[0] &
  Parameters<typeof judges>[0] &
  Parameters<typeof summarizesWithLlm>[0] &
  Parameters<typeof planReader>[0] &
  Parameters<typeof planJudge>[0] &
  Parameters<typeof planSummaries>[0] & { readonly contextualModel: string };

/** What a run would do, counted without calling any model or endpoint. */
export type RunPlan = {
  questions: number;
  byType: Record<string, number>;
  abstention: number;
  documents: number;
  /** An external system's ingests (one per distinct haystack). */
  ingest?: IngestPlan;
  /** The stages after retrieval lme's pipeline will run, in their order (their descriptors' provenance). */
  stages?: string[];
  embedding?: {
    embedder: string;
    distinctTexts: number;
    cached: number;
    queries: number;
    queriesCached: number;
  };
  llm: LlmPlan[];
  /** Sum of the LLM costs; null when a model has no price. */
  costUsd: number | null;
  notes: string[];
};

// Token estimates: exact o200k_base counts on a sample of texts, scaled by characters.
const SAMPLE_QUESTIONS = 12;
// --contextual llm: one call per document, the conversation around it cut at 8000 characters
// (contextPrompt), the chunk and about 400 characters of instructions; max_tokens 150.
const CONTEXT_CONVERSATION_CHARS = 8000;
const CONTEXT_INSTRUCTION_CHARS = 400;
const CONTEXT_COMPLETION_TOKENS = 150;

/**
 * The plan of a run over these records: questions, documents to index, texts to embed (and how
 * many the cache holds), LLM calls per role with estimated tokens and cost. Reader prompts are
 * estimated from the sessions the provider would hand over (all, evidence, or the top-k by
 * average session size), at the official token budget; completions at their maximum length.
 * Which roles run is config/run-shape.ts's answer, as for preflight and the run itself.
 */
export async function planRun(
  config: PlannedConfig,
  records: readonly LongMemEvalRecord[],
): Promise<RunPlan> {
  // A plan of a run preflight would refuse is refused the same way.
  checkAnswerSource(config);
  const byType: Record<string, number> = {};
  for (const record of records) byType[record.question_type] = (byType[record.question_type] ?? 0) + 1;
  const notes: string[] = [];
  const provider = providerCapabilities(config.provider);
  const contextualizes = contextualizesWithLlm(config, provider);
  const corpus = countCorpus(config, records, contextualizes);
  const ingest = planIngest(config, records);
  const stages = usesPipeline(provider) ? stagesProvenance(config) : [];
  const embedding = embeds(config, provider)
    ? await planEmbedding(config, records, corpus.texts, notes)
    : undefined;

  const tokensPerChar = sampleTokensPerChar(records);
  const unpriced: UnpricedPlan[] = [];
  if (readsAndJudges(config)) unpriced.push(...planReader(config, records, tokensPerChar, notes));
  if (judges(config)) unpriced.push(planJudge(config, records, notes));
  if (summarizesWithLlm(config, provider))
    unpriced.push(planSummaries(config, records, tokensPerChar, notes));
  if (contextualizes) {
    unpriced.push({
      role: 'contextual',
      model: config.contextualModel,
      calls: corpus.documents,
      promptTokens: Math.round(corpus.contextPromptChars * tokensPerChar),
      completionTokens: corpus.documents * CONTEXT_COMPLETION_TOKENS,
    });
    notes.push(
      'contexts already in the completion cache are not requested again; the plan counts every document.',
    );
  }
  const rerank = planRerank(config, records, tokensPerChar);
  if (rerank) {
    unpriced.push({ role: 'reranker', ...rerank });
    notes.push(
      'rerank calls already in the completion cache are not made again; the plan counts every call.',
    );
  }
  const prices = await loadPriceTable();
  const llm = unpriced.map((plan) => ({ ...plan, costUsd: estimateCost(plan.model, plan, prices).usd }));
  const costs = llm.map((plan) => plan.costUsd);
  return {
    questions: records.length,
    byType,
    abstention: records.filter((record) => isAbstention(record.question_id)).length,
    documents: corpus.documents,
    ...(ingest ? { ingest } : {}),
    ...(stages.length > 0 ? { stages } : {}),
    embedding,
    llm,
    costUsd: costs.some((cost) => cost === null)
      ? null
      : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
    notes,
  };
}

/** The documents of every haystack, their distinct texts, and the characters of their `--contextual llm` prompts. */
function countCorpus(
  config: PlannedConfig,
  records: readonly LongMemEvalRecord[],
  contextualizes: boolean,
): { documents: number; texts: Set<string>; contextPromptChars: number } {
  let documents = 0;
  const texts = new Set<string>();
  let contextPromptChars = 0;
  for (const record of records) {
    const corpus = buildCorpus(record, config);
    documents += corpus.documents.length;
    for (const document of corpus.documents)
      for (const part of document.parts ?? [document.text]) texts.add(part);
    if (contextualizes) contextPromptChars += contextPromptCharacters(corpus.documents);
  }
  return { documents, texts, contextPromptChars };
}

/** Texts and questions to embed, and how many of each the embedding cache already holds. */
async function planEmbedding(
  config: PlannedConfig,
  records: readonly LongMemEvalRecord[],
  texts: ReadonlySet<string>,
  notes: string[],
): Promise<RunPlan['embedding']> {
  const embedder: Partial<CachedEmbedder> & { close?(): Promise<void> } = createConfiguredEmbedder(config);
  const queries = records.map((record) => record.question);
  const embedding = {
    embedder: config.embedder,
    distinctTexts: texts.size,
    cached: embedder.countCached ? await embedder.countCached({ texts: [...texts] }) : 0,
    queries: new Set(queries).size,
    queriesCached: embedder.countCached ? await embedder.countCached({ texts: queries, kind: 'query' }) : 0,
  };
  await embedder.close?.();
  if (!config.cache) notes.push('--no-cache: every text is embedded, cached or not.');
  if (config.contextual !== 'none' && config.contextualDense) {
    notes.push('contextualized texts differ per haystack: they are embedded on top of the counts above.');
  }
  return embedding;
}

/** o200k_base tokens per character of haystack text, measured on a few questions. */
function sampleTokensPerChar(records: readonly LongMemEvalRecord[]): number {
  let chars = 0;
  let tokens = 0;
  for (const record of records.slice(0, SAMPLE_QUESTIONS)) {
    const text = record.haystack_sessions
      .slice(0, 10)
      .flat()
      .map((turn) => turn.content)
      .join('\n');
    chars += text.length;
    tokens += countTokens(text);
  }
  return chars === 0 ? 0.25 : tokens / chars;
}

/** Characters of the `--contextual llm` prompts of one haystack's documents (see contextPrompt). */
function contextPromptCharacters(documents: readonly { text: string; sessionId: string }[]): number {
  const sessionChars = new Map<string, number>();
  for (const document of documents)
    sessionChars.set(
      document.sessionId,
      (sessionChars.get(document.sessionId) ?? 0) + document.text.length + 1,
    );
  return documents.reduce(
    (sum, document) =>
      sum +
      Math.min(sessionChars.get(document.sessionId)!, CONTEXT_CONVERSATION_CHARS) +
      document.text.length +
      CONTEXT_INSTRUCTION_CHARS,
    0,
  );
}

import type { MemoryDocument } from '@lme/search-core';
import { type CachedEmbedder, estimateCost, loadPriceTable } from '@lme/search-core';
import { buildCorpus, type CorpusOptions } from '../../benchmarks/build-corpus.js';
import { isAbstention, type LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { stagesProvenance } from '../../components/stages/stage-registry.js';
import type { RunSections } from '../../config/run-sections.js';
import { judges, partsEmbed, readsAndJudges, usesPipeline } from '../../config/run-shape.js';
import { countTokens } from '../../metrics/truncate-tokens.js';
import { createConfiguredEmbedder } from '../../providers/pipeline/configured-embedder.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { checkAnswerSource } from '../checks/check-answer-source.js';
import { type IngestPlan, planIngest } from './plan-ingest.js';
import { type LlmPlan, planJudge, planReader, type UnpricedPlan } from './plan-llm.js';
import { planRerank } from './plan-rerank.js';

export type { LlmPlan } from './plan-llm.js';

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

/**
 * The plan of a run over these records: questions, documents to index, texts to embed (and how
 * many the cache holds), LLM calls per role with estimated tokens and cost. Reader prompts are
 * estimated from the sessions the provider would hand over (all, evidence, or the top-k by
 * average session size), at the official token budget; completions at their maximum length.
 * Which roles run is config/run-shape.ts's answer, as for preflight and the run itself.
 */
export async function planRun(
  sections: RunSections,
  records: readonly LongMemEvalRecord[],
): Promise<RunPlan> {
  const { qa, retrieval, pipelineStages } = sections;
  const answering = { ...qa, provider: sections.provider.provider };
  // A plan of a run preflight would refuse is refused the same way.
  checkAnswerSource(answering);
  const byType: Record<string, number> = {};
  for (const record of records) byType[record.question_type] = (byType[record.question_type] ?? 0) + 1;
  const notes: string[] = [];
  const provider = providerCapabilities(sections.provider.provider);
  const corpus = countCorpus(retrieval, records);
  const ingest = planIngest({ ...sections.provider, ...retrieval }, records);
  const stages = usesPipeline(provider) ? stagesProvenance(pipelineStages) : [];
  const embeds = partsEmbed(sections, provider);
  const embedding = embeds ? await planEmbedding(sections, records, corpus.texts, notes) : undefined;

  const tokensPerChar = sampleTokensPerChar(records);
  const unpriced: UnpricedPlan[] = [];
  if (readsAndJudges(qa)) unpriced.push(...planReader(answering, records, tokensPerChar, notes));
  if (judges(qa)) unpriced.push(planJudge(qa, records, notes));
  // The selected stages' own counts (their descriptors' `plan`): their chat model's calls, and notes.
  if (usesPipeline(provider)) {
    const input = { ...corpus, tokensPerChar, embeds };
    for (const { descriptor, options } of pipelineStages) {
      const plan = descriptor.plan?.(options, input);
      const model = descriptor.chatModel?.(options);
      if (plan?.calls && model) unpriced.push({ ...model, ...plan.calls });
      notes.push(...(plan?.notes ?? []));
    }
  }
  const rerank = planRerank(sections, records, tokensPerChar);
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
    documents: corpus.haystacks.reduce((sum, haystack) => sum + haystack.length, 0),
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

/** The documents of every haystack, their distinct texts, and each distinct session's turns. */
function countCorpus(
  options: CorpusOptions,
  records: readonly LongMemEvalRecord[],
): { haystacks: MemoryDocument[][]; texts: Set<string>; sessions: Map<string, string[]> } {
  const haystacks: MemoryDocument[][] = [];
  const texts = new Set<string>();
  const sessions = new Map<string, string[]>();
  for (const record of records) {
    const corpus = buildCorpus(record, options);
    haystacks.push(corpus.documents);
    for (const document of corpus.documents)
      for (const part of document.parts ?? [document.text]) texts.add(part);
    record.haystack_session_ids.forEach((id, index) => {
      sessions.set(
        id,
        record.haystack_sessions[index]!.map((turn) => turn.content),
      );
    });
  }
  return { haystacks, texts, sessions };
}

/** Texts and questions to embed, and how many of each the embedding cache already holds. */
async function planEmbedding(
  sections: RunSections,
  records: readonly LongMemEvalRecord[],
  texts: ReadonlySet<string>,
  notes: string[],
): Promise<RunPlan['embedding']> {
  const embedder: Partial<CachedEmbedder> & { close?(): Promise<void> } = createConfiguredEmbedder(sections);
  const queries = records.map((record) => record.question);
  const embedding = {
    embedder: sections.embedding.embedder,
    distinctTexts: texts.size,
    cached: embedder.countCached ? await embedder.countCached({ texts: [...texts] }) : 0,
    queries: new Set(queries).size,
    queriesCached: embedder.countCached ? await embedder.countCached({ texts: queries, kind: 'query' }) : 0,
  };
  await embedder.close?.();
  if (!sections.run.cache) notes.push('--no-cache: every text is embedded, cached or not.');
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

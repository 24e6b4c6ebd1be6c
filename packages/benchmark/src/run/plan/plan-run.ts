import { type CachedEmbedder, estimateCost, loadPriceTable } from '@lme/search-core';
import { sharedQaSettings } from '../../benchmarks/benchmark-registry.js';
import { buildCorpus } from '../../benchmarks/build-corpus.js';
import { isAbstention, type LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { RunConfig } from '../../config/run-config.js';
import {
  contextualizesWithLlm,
  embeds,
  judges,
  readsAndJudges,
  summarizesWithLlm,
} from '../../config/run-shape.js';
import { countTokens } from '../../metrics/truncate-tokens.js';
import { createConfiguredEmbedder } from '../../providers/pipeline/configured-embedder.js';
import { judgeRubricDefinition } from '../../qa/judge-rubrics.js';
import { officialContextLength } from '../../qa/reader.js';
import { readerPromptDefinition } from '../../qa/reader-prompts.js';
import { judgeOf, readerPromptOf } from '../benchmark-defaults.js';
import { checkAnswerSource } from '../checks/check-answer-source.js';
import { type IngestPlan, planIngest, renderIngestPlan } from './plan-ingest.js';
import { planRerank } from './plan-rerank.js';

export type LlmPlan = {
  role: 'reader' | 'reader-notes' | 'judge' | 'summarizer' | 'contextual' | 'reranker';
  model: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
};

/** What a run would do, counted without calling any model or endpoint. */
export type RunPlan = {
  questions: number;
  byType: Record<string, number>;
  abstention: number;
  documents: number;
  /** An external system's ingests (one per distinct haystack). */
  ingest?: IngestPlan;
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
// Reader max_tokens: a prompt's own (`ReaderPromptDefinition.maxTokens`), else 800, what the official run_generation.py sends.
const ANSWER_TOKENS = 800;
const SUMMARY_COMPLETION_TOKENS = 150;
// --contextual llm: one call per document, the conversation around it cut at 8000 characters
// (contextPrompt), the chunk and about 400 characters of instructions; max_tokens 150.
const CONTEXT_CONVERSATION_CHARS = 8000;
const CONTEXT_INSTRUCTION_CHARS = 400;
const CONTEXT_COMPLETION_TOKENS = 150;
const JUDGE_HYPOTHESIS_TOKENS = 120;

/** An LLM role's calls and tokens, before pricing. */
type UnpricedPlan = Omit<LlmPlan, 'costUsd'>;

/**
 * The plan of a run over these records: questions, documents to index, texts to embed (and how
 * many the cache holds), LLM calls per role with estimated tokens and cost. Reader prompts are
 * estimated from the sessions the provider would hand over (all, evidence, or the top-k by
 * average session size), at the official token budget; completions at their maximum length.
 * Which roles run is config/run-shape.ts's answer, as for preflight and the run itself.
 */
export async function planRun(config: RunConfig, records: readonly LongMemEvalRecord[]): Promise<RunPlan> {
  // A plan of a run preflight would refuse is refused the same way.
  checkAnswerSource(config);
  const byType: Record<string, number> = {};
  for (const record of records) byType[record.question_type] = (byType[record.question_type] ?? 0) + 1;
  const notes: string[] = [];
  const corpus = countCorpus(config, records);
  const ingest = planIngest(config, records);
  const embedding = embeds(config) ? await planEmbedding(config, records, corpus.texts, notes) : undefined;

  const tokensPerChar = sampleTokensPerChar(records);
  const unpriced: UnpricedPlan[] = [];
  if (readsAndJudges(config)) unpriced.push(...planReader(config, records, tokensPerChar, notes));
  if (judges(config)) unpriced.push(planJudge(config, records, notes));
  if (summarizesWithLlm(config)) unpriced.push(planSummaries(config, records, tokensPerChar, notes));
  if (contextualizesWithLlm(config)) {
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
  config: RunConfig,
  records: readonly LongMemEvalRecord[],
): { documents: number; texts: Set<string>; contextPromptChars: number } {
  let documents = 0;
  const texts = new Set<string>();
  let contextPromptChars = 0;
  for (const record of records) {
    const corpus = buildCorpus(record, config);
    documents += corpus.documents.length;
    for (const document of corpus.documents)
      for (const part of document.parts ?? [document.text]) texts.add(part);
    if (contextualizesWithLlm(config)) contextPromptChars += contextPromptCharacters(corpus.documents);
  }
  return { documents, texts, contextPromptChars };
}

/** Texts and questions to embed, and how many of each the embedding cache already holds. */
async function planEmbedding(
  config: RunConfig,
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

/** The reader's calls, and Chain-of-Note's (`--reader-notes`). */
function planReader(
  config: RunConfig,
  records: readonly LongMemEvalRecord[],
  tokensPerChar: number,
  notes: string[],
): UnpricedPlan[] {
  const readerModel = config.readerModel!;
  const plans: UnpricedPlan[] = [];
  const answerTokens =
    config.readerMaxTokens ?? readerPromptDefinition(readerPromptOf(config)).maxTokens ?? ANSWER_TOKENS;
  const budget = officialContextLength(readerModel) - answerTokens - 1000;
  let promptTokens = 0;
  let noteCalls = 0;
  let notePromptTokens = 0;
  const { noteTemplate, noteMaxTokens } = sharedQaSettings();
  const noteTemplateTokens = countTokens(noteTemplate);
  for (const record of records) {
    const chunks = readerChunkChars(config, record);
    const chars = chunks.reduce((sum, value) => sum + value, 0);
    promptTokens += Math.min(Math.round(chars * tokensPerChar), budget) + 150;
    if (config.readerNotes) {
      // Chain-of-Note: one note call per history chunk, before the reader's call.
      noteCalls += chunks.length;
      const questionTokens = Math.round((record.question.length + 40) * tokensPerChar);
      for (const chunk of chunks) {
        notePromptTokens += Math.round(chunk * tokensPerChar) + noteTemplateTokens + questionTokens;
      }
    }
  }
  if (config.readerNotes) {
    plans.push({
      role: 'reader-notes',
      model: readerModel,
      calls: noteCalls,
      promptTokens: notePromptTokens,
      completionTokens: noteCalls * noteMaxTokens,
    });
    notes.push(
      `Chain-of-Note (--reader-notes): one note call per history session before each answer, max_tokens ${noteMaxTokens}.`,
    );
  }
  plans.push({
    role: 'reader',
    model: readerModel,
    calls: records.length,
    promptTokens,
    completionTokens: records.length * answerTokens,
  });
  return plans;
}

/** The judge's calls, by the configured rubric: the reader's answers or the provider's own. */
function planJudge(config: RunConfig, records: readonly LongMemEvalRecord[], notes: string[]): UnpricedPlan {
  // The configured rubric: its prompt, its max_tokens, and the questions it grades at all.
  const rubric = judgeRubricDefinition(judgeOf(config));
  const judged = records.filter((record) => rubric.grades?.(record) ?? true);
  // A graded rubric (BEAM's) makes one call per item: each item's prompt is counted.
  const prompts = (record: LongMemEvalRecord) =>
    rubric.kind === 'graded'
      ? rubric.items(record, '').map((item) => item.prompt)
      : [rubric.prompt(record, '')];
  const judgeCalls = judged.reduce((sum, record) => sum + prompts(record).length, 0);
  const judgePrompt = judged.reduce(
    (sum, record) =>
      sum +
      prompts(record).reduce((total, prompt) => total + countTokens(prompt) + JUDGE_HYPOTHESIS_TOKENS, 0),
    0,
  );
  const plan: UnpricedPlan = {
    role: 'judge',
    model: config.judgeModel,
    // --judge-samples k: the whole request k times (each vote is its own call).
    calls: judgeCalls * config.judgeSamples,
    promptTokens: judgePrompt * config.judgeSamples,
    completionTokens: judgeCalls * (rubric.maxTokens ?? 10) * config.judgeSamples,
  };
  if (judged.length < records.length) {
    notes.push(
      `judge ${judgeOf(config)} grades ${judged.length} of ${records.length} questions (${rubric.description}).`,
    );
  }
  if (
    rubric.kind !== 'graded' &&
    rubric.gradesAbstention &&
    records.some((record) => isAbstention(record.question_id))
  ) {
    notes.push('abstention questions are judged with the official abstention template.');
  }
  return plan;
}

/** `--summarizer llm`: one call per distinct session, its text cut at 12,000 characters. */
function planSummaries(
  config: RunConfig,
  records: readonly LongMemEvalRecord[],
  tokensPerChar: number,
  notes: string[],
): UnpricedPlan {
  const sessions = new Map<string, number>();
  for (const record of records) {
    record.haystack_session_ids.forEach((id, index) => {
      sessions.set(
        id,
        record.haystack_sessions[index]!.reduce(
          (sum, turn) => sum + Math.min(turn.content.length, 12_000),
          0,
        ),
      );
    });
  }
  const chars = [...sessions.values()].reduce((sum, value) => sum + Math.min(value, 12_000) + 400, 0);
  notes.push('summaries already in the cache are not requested again; the plan counts every session.');
  return {
    role: 'summarizer',
    model: config.summarizerModel,
    calls: sessions.size,
    promptTokens: Math.round(chars * tokensPerChar),
    completionTokens: sessions.size * SUMMARY_COMPLETION_TOKENS,
  };
}

/**
 * Characters of each history chunk (session) the reader gets for a question: every session
 * (full-context), the evidence sessions (oracle), else the top readerTopK at the mean session size.
 */
function readerChunkChars(config: RunConfig, record: LongMemEvalRecord): number[] {
  const sessionChars = record.haystack_sessions.map((turns) =>
    turns.reduce((sum, turn) => sum + turn.content.length + 40, 0),
  );
  if (config.provider === 'full-context') return sessionChars;
  if (config.provider === 'oracle') {
    const evidence = new Set(record.answer_session_ids);
    return sessionChars.filter((_, index) => evidence.has(record.haystack_session_ids[index]!));
  }
  const mean = sessionChars.reduce((sum, value) => sum + value, 0) / Math.max(sessionChars.length, 1);
  return new Array<number>(Math.min(config.readerTopK, sessionChars.length)).fill(mean);
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

/** The plan as printed by `lme run --dry-run`. */
export function renderPlan(plan: RunPlan): string {
  const lines = [
    `questions: ${plan.questions} (${Object.entries(plan.byType)
      .map(([type, count]) => `${type} ${count}`)
      .join(', ')}; ${plan.abstention} abstention)`,
    `documents to index: ${plan.documents}`,
  ];
  if (plan.ingest) lines.push(renderIngestPlan(plan.ingest, plan.questions));
  if (plan.embedding) {
    const { embedder, distinctTexts, cached, queries, queriesCached } = plan.embedding;
    lines.push(
      `texts to embed with ${embedder}: ${distinctTexts} distinct, ${cached} cached, ${distinctTexts - cached} new; ` +
        `questions: ${queries}, ${queriesCached} cached`,
    );
  } else {
    lines.push('texts to embed: none (no dense route)');
  }
  if (plan.llm.length === 0) lines.push('LLM calls: none (no --reader-model; retrieval metrics only)');
  for (const role of plan.llm) {
    lines.push(
      `LLM ${role.role} (${role.model}): ${role.calls} calls, ~${role.promptTokens.toLocaleString('en-US')} prompt + ` +
        `≤${role.completionTokens.toLocaleString('en-US')} completion tokens, ` +
        (role.costUsd === null
          ? 'cost unknown (no price for the model in configs/prices.json)'
          : `~$${role.costUsd.toFixed(2)}`),
    );
  }
  if (plan.llm.length > 0) {
    lines.push(
      `estimated cost: ${plan.costUsd === null ? 'unknown (a model has no price)' : `~$${plan.costUsd.toFixed(2)} at most, before cache hits`}`,
    );
  }
  for (const note of plan.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
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

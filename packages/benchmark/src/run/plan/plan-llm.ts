import { sharedQaSettings } from '../../benchmarks/benchmark-registry.js';
import { isAbstention, type LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { QaSection } from '../../config/sections/qa-section.js';
import { countTokens } from '../../metrics/truncate-tokens.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { judgeRubricDefinition } from '../../qa/judge-rubrics.js';
import { officialContextLength } from '../../qa/reader.js';
import { readerPromptDefinition } from '../../qa/reader-prompts.js';
import { judgeOf, readerPromptOf } from '../benchmark-defaults.js';

/** The LLM calls of one role in a run's plan, with their estimated tokens and cost. */
export type LlmPlan = {
  /** reader, reader-notes, judge, reranker, or a stage's role (its `chatModel`: summarizer, contextual). */
  role: string;
  model: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
};

// Reader max_tokens: a prompt's own (`ReaderPromptDefinition.maxTokens`), else 800, what the official run_generation.py sends.
const ANSWER_TOKENS = 800;
const JUDGE_HYPOTHESIS_TOKENS = 120;

/** An LLM role's calls and tokens, before pricing. */
export type UnpricedPlan = Omit<LlmPlan, 'costUsd'>;

/** The reader's calls, and Chain-of-Note's (`--reader-notes`). */
export function planReader(
  config: QaSection & Pick<ProviderSection, 'provider'>,
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
export function planJudge(
  config: QaSection,
  records: readonly LongMemEvalRecord[],
  notes: string[],
): UnpricedPlan {
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

/**
 * Characters of each history chunk (session) the reader gets for a question: every session or the
 * evidence sessions (a provider's `readerSessions`), else the top readerTopK at the mean session size.
 */
function readerChunkChars(
  config: Pick<QaSection, 'readerTopK'> & Pick<ProviderSection, 'provider'>,
  record: LongMemEvalRecord,
): number[] {
  const sessionChars = record.haystack_sessions.map((turns) =>
    turns.reduce((sum, turn) => sum + turn.content.length + 40, 0),
  );
  // A provider that hands the reader whole sessions says which (its `readerSessions` capability).
  const { readerSessions } = providerCapabilities(config.provider);
  if (readerSessions === 'haystack') return sessionChars;
  if (readerSessions === 'evidence') {
    const evidence = new Set(record.answer_session_ids);
    return sessionChars.filter((_, index) => evidence.has(record.haystack_session_ids[index]!));
  }
  const mean = sessionChars.reduce((sum, value) => sum + value, 0) / Math.max(sessionChars.length, 1);
  return new Array<number>(Math.min(config.readerTopK, sessionChars.length)).fill(mean);
}

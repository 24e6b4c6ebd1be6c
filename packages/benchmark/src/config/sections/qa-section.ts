import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';
import { endpointUrl } from '../../components/setting-values.js';

/** Question answering: the reader, the judge and their endpoints and budget. */
export const QA_SHAPE = {
  /** The QA stage runs when a reader model is set. */
  readerModel: z.string().min(1).optional(),
  /**
   * Reader prompt style: a name a benchmark brings (`readerPrompts` of benchmarks/<name>/, checked
   * against the registry before a run); unset: the dataset's benchmark's (`defaults.readerPrompt`).
   */
  readerPrompt: z.string().min(1).optional(),
  historyFormat: z.enum(['json', 'nl']).default('json'),
  /** Retrieved sessions (in rank order) handed to the reader by the pipeline provider. */
  readerTopK: z.number().int().min(1).default(10),
  /** Reader `max_tokens` (official `--gen_length`); unset: 800, what run_generation.py sends. */
  readerMaxTokens: z.number().int().min(1).optional(),
  /** Official `--useronly`: `user` keeps only user turns in the reader's history. */
  readerHistory: z.enum(['all', 'user']).default('all'),
  /** Official `--con true` (Chain-of-Note): a note per history chunk, then the answer over the notes. */
  readerNotes: z.boolean().default(false),
  /** `turn`: each retrieved turn with its round (official flat-turn); `session`: whole sessions. */
  readerContext: z.enum(['session', 'turn']).default('session'),
  /**
   * Whose answers the judge grades: `reader`, lme's reader (`readerModel`) over the provider's
   * hits; `provider`, the answer the memory system returns itself (`--provider http`), with no
   * lme reader.
   */
  answers: z.enum(['reader', 'provider']).default('reader'),
  judgeModel: z.string().min(1).default('gpt-4o-2024-08-06'),
  /** Judge calls per answer (one per vote, each cached under its index); the majority is the label. */
  judgeSamples: z.number().int().min(1).max(15).default(1),
  /** Judge sampling temperature; 0 is the official setting (votes of k > 1 then rarely differ). */
  judgeTemperature: z.number().min(0).max(2).default(0),
  /**
   * Judge rubric: a name a benchmark brings (`judges` of benchmarks/<name>/, checked against the
   * registry before a run); unset: the dataset's benchmark's (`defaults.judge`).
   */
  judge: z.string().min(1).optional(),
  /** OpenAI-compatible endpoint (else OPENAI_BASE_URL, else api.openai.com); per-role overrides. */
  baseUrl: endpointUrl.optional(),
  readerBaseUrl: endpointUrl.optional(),
  judgeBaseUrl: endpointUrl.optional(),
  maxRetries: z.number().int().min(0).max(20).default(6),
  timeoutMs: z.number().int().min(1).default(180_000),
  /** Stop starting questions once the estimated spend (USD) passes this. */
  maxCost: z.number().positive().optional(),
};

/** The flags of the qa section (config/run-options.ts lists every section's). */
export const QA_OPTIONS = [
  {
    flags: '--reader-model <model>',
    key: 'readerModel',
    group: 'qa',
    help: 'answer each question with this chat model (turns on the QA stage)',
  },
  {
    flags: '--reader-prompt <style>',
    key: 'readerPrompt',
    group: 'qa',
    help: "reader prompt by name (the benchmarks' prompts: direct, cot step-by-step, ...)",
    defaultHelp: "the dataset's benchmark's",
  },
  {
    flags: '--history-format <format>',
    key: 'historyFormat',
    group: 'qa',
    help: 'history given to the reader',
  },
  {
    flags: '--reader-top-k <n>',
    key: 'readerTopK',
    group: 'qa',
    help: 'retrieved sessions handed to the reader',
  },
  {
    flags: '--reader-max-tokens <n>',
    key: 'readerMaxTokens',
    group: 'qa',
    help: 'reader max_tokens (official --gen_length); the history budget shrinks with it',
    defaultHelp: '800 for both prompt styles, what the official run_generation.py sends',
  },
  {
    flags: '--reader-history <roles>',
    key: 'readerHistory',
    group: 'qa',
    help: 'turns in the reader history: all, or user turns only (official --useronly true)',
  },
  {
    flags: '--reader-notes',
    key: 'readerNotes',
    group: 'qa',
    help: 'Chain-of-Note (official --con true): a note per history chunk, then the answer over the notes',
  },
  {
    flags: '--reader-context <unit>',
    key: 'readerContext',
    group: 'qa',
    help: 'what the reader gets from a turn retriever: whole sessions, or each retrieved turn with its round (official flat-turn)',
  },
  {
    flags: '--answers <source>',
    key: 'answers',
    group: 'qa',
    help: "whose answers are judged: lme's reader (--reader-model) or the provider's own (--provider http returning answer)",
  },
  { flags: '--judge-model <model>', key: 'judgeModel', group: 'qa', help: 'official LLM judge model' },
  {
    flags: '--judge-samples <n>',
    key: 'judgeSamples',
    group: 'qa',
    help: 'judge calls per answer, majority wins; agreement and a 95% Wilson interval reported beside',
  },
  {
    flags: '--judge-temperature <t>',
    key: 'judgeTemperature',
    group: 'qa',
    help: 'judge sampling temperature (0 official; set above 0 with --judge-samples above 1)',
  },
  {
    flags: '--judge <rubric>',
    key: 'judge',
    group: 'qa',
    help: "judge rubric by name (the benchmarks' judges; an unknown name is refused, with close names)",
    defaultHelp: "the dataset's benchmark's published judge",
  },
  {
    flags: '--base-url <url>',
    key: 'baseUrl',
    group: 'qa',
    help: 'OpenAI-compatible endpoint (env OPENAI_BASE_URL, read by config/openai-endpoints.ts); key from OPENAI_API_KEY',
  },
  {
    flags: '--reader-base-url <url>',
    key: 'readerBaseUrl',
    group: 'qa',
    help: 'endpoint for the reader only (key: LME_READER_API_KEY or OPENAI_API_KEY)',
  },
  {
    flags: '--judge-base-url <url>',
    key: 'judgeBaseUrl',
    group: 'qa',
    help: 'endpoint for the judge only (key: LME_JUDGE_API_KEY or OPENAI_API_KEY)',
  },
  {
    flags: '--max-retries <n>',
    key: 'maxRetries',
    group: 'qa',
    help: 'retries of a failed LLM call, by the client',
  },
  { flags: '--timeout <ms>', key: 'timeoutMs', group: 'qa', help: 'timeout of one LLM call in milliseconds' },
  {
    flags: '--max-cost <usd>',
    key: 'maxCost',
    group: 'qa',
    help: 'stop starting questions once the estimated spend passes this',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type QaSection = z.output<z.ZodObject<typeof QA_SHAPE>>;

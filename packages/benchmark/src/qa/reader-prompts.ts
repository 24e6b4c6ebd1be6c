import { BEAM_READER_PROMPT } from '../benchmarks/beam/beam-prompts.js';
import {
  type LocomoReaderBuildOptions,
  locomoReaderPromptDefinition,
} from '../benchmarks/locomo/locomo-prompts.js';
import { READER_TEMPLATE_COT, READER_TEMPLATE_DIRECT } from '../benchmarks/longmemeval/official-prompts.js';
import { pythonFormat } from '../dataset/python-compat.js';

/** What a reader prompt is filled with. */
export type ReaderPromptParts = {
  /** The rendered (and possibly truncated) history. */
  history: string;
  questionDate: string;
  question: string;
};

/** One reader prompt style: how the final prompt is filled. */
export type ReaderPromptDefinition = {
  /** One line for `--help` and errors. */
  description: string;
  /** `max_tokens` when `--reader-max-tokens` is not given; default 800, what the official script sends. */
  maxTokens?: number;
  fill(parts: ReaderPromptParts): string;
  /**
   * A style that builds the whole prompt from the question record and the retrieved chunks (not
   * from the rendered history), and turns the reply into the stored answer (`locomo`).
   */
  build?(options: LocomoReaderBuildOptions): { text: string; finish(reply: string): string };
};

/**
 * The reader prompt styles, by `--reader-prompt` name. Adding a style is one entry here (and its
 * name in the config schema's enum). `direct` and `cot` are run_generation.py's `--cot false` and
 * `--cot true` templates (`merge_key_expansion_into_value == 'none'`), byte for byte.
 */
export const readerPrompts = {
  direct: {
    description: 'official --cot false: answer directly',
    fill: ({ history, questionDate, question }) =>
      pythonFormat(READER_TEMPLATE_DIRECT, history, questionDate, question),
  },
  cot: {
    description: 'official --cot true (reading method "con"): extract, then reason step by step',
    fill: ({ history, questionDate, question }) =>
      pythonFormat(READER_TEMPLATE_COT, history, questionDate, question),
  },
  locomo: locomoReaderPromptDefinition,
  /** BEAM's RAG baseline reader (`answer_generation_for_rag`), `<context>` and `<question>` replaced. */
  beam: {
    description: "BEAM's RAG baseline reader (answer_generation_for_rag): answer only from the context",
    fill: ({ history, question }) =>
      BEAM_READER_PROMPT.split('<context>').join(history).split('<question>').join(question),
  },
} satisfies Record<string, ReaderPromptDefinition>;

export type ReaderPromptStyle = keyof typeof readerPrompts;

/** The definition of a style; an unknown name fails listing the known ones. */
export function readerPromptDefinition(name: string): ReaderPromptDefinition {
  if (!Object.hasOwn(readerPrompts, name)) {
    throw new Error(`Unknown reader prompt "${name}"; known: ${Object.keys(readerPrompts).join(', ')}.`);
  }
  return (readerPrompts as Record<string, ReaderPromptDefinition>)[name]!;
}

import { createRequire } from 'node:module';
import type { Tiktoken } from 'tiktoken/lite';

export type TruncateResult = {
  text: string;
  /** Tokens before truncation. */
  tokens: number;
  truncated: boolean;
};

type Ranks = { bpe_ranks: string; special_tokens: Record<string, number>; pat_str: string };

let encoder: Tiktoken | undefined;
const utf8 = new TextDecoder('utf-8');

/**
 * o200k_base, loaded once from the ranks that ship inside the `tiktoken` package (tiktoken's own
 * Rust encoder compiled to WebAssembly, as the official Python scripts run it): no network. It
 * loads in about 0.35 s of CPU where js-tiktoken's port took 0.7 s, once in every `lme run` (each
 * graded question's context is counted).
 */
function o200k(): Tiktoken {
  if (encoder === undefined) {
    // Required on first use: the WebAssembly module and the ranks (megabytes) stay unloaded in
    // commands that never count tokens.
    const require = createRequire(import.meta.url);
    const { Tiktoken: Encoder } = require('tiktoken/lite') as typeof import('tiktoken/lite');
    const ranks = require('tiktoken/encoders/o200k_base.json') as Ranks;
    encoder = new Encoder(ranks.bpe_ranks, ranks.special_tokens, ranks.pat_str);
  }
  return encoder;
}

/**
 * Keeps the first `maxTokens` o200k_base tokens of `text`, as run_generation.py does with
 * `tokenizer.encode(history, allowed_special={'<|endoftext|>'})[:max]` then `decode`. A character
 * split by the cut decodes to U+FFFD, as in tiktoken. Deviation: other special-token text
 * (`<|endofprompt|>`) is encoded as ordinary text where tiktoken would raise.
 */
export function truncateToTokens(text: string, maxTokens: number): TruncateResult {
  const tokens = o200k().encode(text, ['<|endoftext|>'], []);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  return {
    text: utf8.decode(o200k().decode(tokens.slice(0, Math.max(0, maxTokens)))),
    tokens: tokens.length,
    truncated: true,
  };
}

/** o200k_base token count (special-token text counted as ordinary text, except `<|endoftext|>`). */
export function countTokens(text: string): number {
  return o200k().encode(text, ['<|endoftext|>'], []).length;
}

import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

export type TruncateResult = {
  text: string;
  /** Tokens before truncation. */
  tokens: number;
  truncated: boolean;
};

let encoder: Tiktoken | undefined;

/** o200k_base, loaded once (about a second) from the ranks that ship inside js-tiktoken: no network. */
function o200k(): Tiktoken {
  encoder ??= new Tiktoken(
    // Required on first use: the ranks are megabytes of source that runs without token counts skip.
    createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE,
  );
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
    text: o200k().decode(tokens.slice(0, Math.max(0, maxTokens))),
    tokens: tokens.length,
    truncated: true,
  };
}

/** o200k_base token count (special-token text counted as ordinary text, except `<|endoftext|>`). */
export function countTokens(text: string): number {
  return o200k().encode(text, ['<|endoftext|>'], []).length;
}

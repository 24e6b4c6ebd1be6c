import { Tokenizer } from '@huggingface/tokenizers';

/** Token ids of one text, cut to the model's limit. */
export type EncodedText = { ids: number[]; truncated: boolean };

export type TokenEncoder = { encode(text: string): EncodedText };

/**
 * The model's tokenizer (`tokenizer.json`), with the truncation a Hugging Face tokenizer applies at
 * `max_length`: the text's tokens are cut so that, with the special tokens around them
 * (`[CLS] … [SEP]`), the ids number at most `maxTokens`. The padding and truncation settings stored
 * in tokenizer.json are ignored (the embedder pads per batch and the limit is the model's).
 */
export function createTokenEncoder(tokenizerJson: object, maxTokens: number): TokenEncoder {
  const tokenizer = new Tokenizer(tokenizerJson, {});
  // Where the special tokens sit: encode one word with and without them.
  const bare = tokenizer.encode('a', { add_special_tokens: false }).ids;
  const full = tokenizer.encode('a', { add_special_tokens: true }).ids;
  const leading = full.indexOf(bare[0]!);
  const trailing = full.length - leading - bare.length;
  if (bare.length === 0 || leading < 0 || trailing < 0 || maxTokens <= leading + trailing) {
    throw new Error(
      'Tokenizer: cannot tell where its special tokens go, or the token limit leaves no room for text.',
    );
  }
  return {
    encode(text) {
      const ids = tokenizer.encode(text, { add_special_tokens: true }).ids;
      if (ids.length <= maxTokens) return { ids, truncated: false };
      return {
        ids: [...ids.slice(0, maxTokens - trailing), ...ids.slice(ids.length - trailing)],
        truncated: true,
      };
    },
  };
}

import { describe, expect, it } from 'vitest';
import { createTokenEncoder } from './token-encoder.js';

// A tiny BERT-style WordPiece tokenizer.json: lower-casing normaliser, [CLS] … [SEP] template.
const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'the', 'trip', 'to', 'kyoto', 'in', 'spring', 'a', '##s'];
const tokenizerJson = {
  version: '1.0',
  truncation: { max_length: 4, strategy: 'LongestFirst', direction: 'Right', stride: 0 },
  padding: null,
  added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map((content) => ({
    id: vocab.indexOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  })),
  normalizer: {
    type: 'BertNormalizer',
    clean_text: true,
    handle_chinese_chars: true,
    strip_accents: null,
    lowercase: true,
  },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: {
    type: 'TemplateProcessing',
    single: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
    ],
    pair: [],
    special_tokens: {
      '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
      '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
    },
  },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 100,
    vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
  },
};

describe('createTokenEncoder', () => {
  it('adds the special tokens and leaves a text within the limit whole', () => {
    const encoder = createTokenEncoder(tokenizerJson, 16);
    expect(encoder.encode('The trip to Kyoto')).toEqual({ ids: [2, 4, 5, 6, 7, 3], truncated: false });
    expect(encoder.encode('')).toEqual({ ids: [2, 3], truncated: false });
  });

  it('cuts a long text at the limit, keeping [SEP] last, and ignores the truncation stored in tokenizer.json', () => {
    const encoder = createTokenEncoder(tokenizerJson, 5);
    expect(encoder.encode('the trip to kyoto in spring')).toEqual({ ids: [2, 4, 5, 6, 3], truncated: true });
    expect(createTokenEncoder(tokenizerJson, 16).encode('the trip to kyoto in spring').ids).toHaveLength(8);
  });

  it('refuses a limit that leaves no room for text', () => {
    expect(() => createTokenEncoder(tokenizerJson, 2)).toThrow(/no room for text/);
  });
});

// An lme plugin (docs/plugins.md): an embedder family from outside lme's source tree. Each text
// becomes a vector of hashed character n-grams (FNV-1a into --ngram-dims buckets, counts, then
// unit length): no model files, no threads, no network, and real enough for a dense route to find
// a turn that shares rare words with the question.
//
//   lme run --plugin examples/char-ngram-embedder-plugin.mjs --retriever dense --embedder ngram:3 -d sample
//
// `ngram:<n>` names the family and the n-gram length (2 to 6).
export default ({ z, defineEmbedder }) => {
  const grams = (text, n) => {
    const padded = ` ${text.toLowerCase().replace(/\s+/g, ' ')} `;
    const found = [];
    for (let start = 0; start + n <= padded.length; start++) found.push(padded.slice(start, start + n));
    return found;
  };
  const bucket = (gram, dimensions) => {
    let hash = 2166136261;
    for (let index = 0; index < gram.length; index++)
      hash = Math.imul(hash ^ gram.charCodeAt(index), 16777619);
    return (hash >>> 0) % dimensions;
  };
  const embed = (text, n, dimensions) => {
    const vector = new Float32Array(dimensions);
    for (const gram of grams(text, n)) vector[bucket(gram, dimensions)] += 1;
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  };
  return {
    embedders: [
      defineEmbedder({
        name: 'ngram',
        description: 'hashed character n-grams, counted and scaled to unit length',
        options: {
          ngramDims: {
            schema: z.number().int().min(16).max(65536).default(4096),
            flags: '--ngram-dims <n>',
            group: 'retrieval',
            help: 'buckets the ngram embedder hashes n-grams into',
          },
        },
        capabilities: { form: 'ngram:<n>', modelFiles: false, threads: false, hosted: false },
        create: (model, options) => {
          const n = Number(model);
          if (!Number.isInteger(n) || n < 2 || n > 6) return undefined; // lme names the forms it takes
          const dimensions = options.ngramDims;
          return {
            id: `ngram:${n}`,
            // The vectors change with the buckets: the disk cache keeps each setting apart.
            cacheIdentity: `ngram:${n}/${dimensions}`,
            dimensions,
            embedDocuments: async ({ texts }) => texts.map((text) => embed(text, n, dimensions)),
            embedQuery: async ({ text }) => embed(text, n, dimensions),
          };
        },
      }),
    ],
  };
};

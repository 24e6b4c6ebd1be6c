// An lme plugin (docs/plugins.md): a retriever and a stage from outside lme's source tree.
//
//   lme run --plugin examples/word-overlap-plugin.mjs --retriever word-overlap --drop-first -d sample
//
// The default export is a function of lme's plugin API (its own zod and definers), so the file
// needs no package of its own; it returns the components by kind.
export default ({ z, defineRetriever, defineStage }) => ({
  retrievers: [
    defineRetriever({
      name: 'word-overlap',
      description: 'documents ranked by how many of the question words they share',
      options: {
        overlapMin: {
          schema: z.number().int().min(0).default(1),
          flags: '--overlap-min <n>',
          group: 'retrieval',
          help: 'fewest shared words a hit needs (word-overlap)',
        },
      },
      capabilities: {
        routes: [],
        fusion: 'rrf',
        bm25Settings: false,
        timeBoost: false,
        denseNeighbours: false,
        refuses: [],
      },
      create: (options, { tokenizer }) => {
        let documents = [];
        return {
          retriever: {
            id: `word-overlap:${options.overlapMin}`,
            async index({ documents: given }) {
              documents = given.map((document) => ({
                ...document,
                words: new Set(tokenizer.tokenize(document.text)),
              }));
            },
            async search({ query, limit }) {
              const asked = new Set(tokenizer.tokenize(query));
              return documents
                .map((document, position) => ({
                  document: position,
                  id: document.id,
                  sessionId: document.sessionId,
                  shared: [...asked].filter((word) => document.words.has(word)).length,
                  position,
                }))
                .filter((hit) => hit.shared >= options.overlapMin)
                .sort((a, b) => b.shared - a.shared || a.position - b.position)
                .slice(0, limit)
                .map(({ document, id, sessionId, shared }) => ({
                  document,
                  id,
                  sessionId,
                  score: shared,
                  routes: {},
                }));
            },
          },
        };
      },
    }),
  ],
  stages: [
    defineStage({
      name: 'drop-first',
      description: 'drops the first hits of the candidate pool',
      options: {
        dropFirst: {
          schema: z.boolean().default(false),
          flags: '--drop-first',
          group: 'stages',
          help: 'drop the first hits of the pool (drop-first)',
        },
        dropCount: {
          schema: z.number().int().min(1).default(1),
          flags: '--drop-count <n>',
          group: 'stages',
          help: 'hits --drop-first drops',
        },
      },
      // After multi-signal (20), before MMR (30).
      capabilities: { runsOn: 'pipeline', order: 25, needsVectors: false },
      switch: 'dropFirst',
      create: (options) => ({ name: 'drop_first', apply: (pool) => pool.slice(options.dropCount) }),
      provenance: (options) => `drop-first (${options.dropCount})`,
      explain: (options) => ({ drop_first: { count: options.dropCount } }),
    }),
  ],
});

// An lme plugin (docs/plugins.md): a retriever, a stage and an external memory system from outside
// lme's source tree.
//
//   lme run --plugin examples/word-overlap-plugin.mjs --retriever word-overlap --drop-first -d sample
//   lme run --plugin examples/word-overlap-plugin.mjs --provider overlap-memory -d sample
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
  memories: [
    {
      name: 'overlap-memory',
      description: 'an in-process memory ranking sessions or turns by the query words they share',
      // Given as --provider-option min-shared=2: the text is read by the schema's type.
      options: {
        'min-shared': { schema: z.number().int().min(0).default(1), help: 'fewest shared words a hit needs' },
      },
      capabilities: { external: true, answersItself: false, ranks: true },
      createMemory: (options) => {
        const words = (text) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
        const stores = new Map();
        return {
          identity: () => ({ kind: 'overlap-memory', url: 'in-process' }),
          async preflight() {},
          async reset(namespace) {
            stores.delete(namespace);
          },
          async ingest(namespace, sessions) {
            const store = stores.get(namespace) ?? [];
            for (const session of sessions)
              for (const turn of session.turns)
                store.push({
                  session_id: session.session_id,
                  turn_index: turn.turn_index,
                  words: words(turn.content),
                });
            stores.set(namespace, store);
            return {};
          },
          async search({ namespace, query, topK, granularity }) {
            const asked = words(query);
            const best = new Map();
            for (const turn of stores.get(namespace) ?? []) {
              const shared = [...asked].filter((word) => turn.words.has(word)).length;
              if (shared < options['min-shared']) continue;
              const key = granularity === 'turn' ? `${turn.session_id}\0${turn.turn_index}` : turn.session_id;
              if ((best.get(key)?.score ?? -1) < shared)
                best.set(key, {
                  session_id: turn.session_id,
                  ...(granularity === 'turn' ? { turn_index: turn.turn_index } : {}),
                  score: shared,
                });
            }
            return { hits: [...best.values()].sort((a, b) => b.score - a.score).slice(0, topK) };
          },
        };
      },
    },
  ],
});

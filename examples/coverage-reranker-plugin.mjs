// An lme plugin (docs/plugins.md): a reranker family from outside lme's source tree. It reorders
// the top --rerank-depth candidates by the share of the question's words (at least <n> letters)
// each one holds, the incoming order breaking ties; it calls no model.
//
//   lme run --plugin examples/coverage-reranker-plugin.mjs --preset bm25 --reranker coverage:4 -d sample
//
// `coverage:<n>` names the family and the shortest word counted.
export default ({ z, defineReranker, option }) => {
  const words = (text, shortest) =>
    new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length >= shortest));
  return {
    rerankers: [
      defineReranker({
        name: 'coverage',
        description: "a reordering by the share of the question's words each candidate holds",
        // Every reranker family reads --rerank-depth: the plugin shares lme's option, not a copy.
        options: { rerankDepth: option('rerankDepth') },
        capabilities: { form: 'coverage:<n>', chatModel: false, server: false },
        argument: {
          schema: z.string().regex(/^[1-9]$/),
          message: 'coverage:<n> takes the shortest word counted, 1 to 9',
        },
        pricedModel: () => undefined,
        create: (argument) => {
          const shortest = Number(argument);
          return {
            id: `coverage:${shortest}`,
            async rerank({ query, candidates }) {
              const asked = words(query, shortest);
              const scores = candidates.map((candidate) => {
                const held = words(candidate.text, shortest);
                const shared = [...asked].filter((word) => held.has(word)).length;
                return asked.size === 0 ? 0 : shared / asked.size;
              });
              const order = candidates
                .map((_, index) => index)
                .sort((a, b) => scores[b] - scores[a] || a - b);
              return {
                order,
                scores,
                missing: [],
                usage: { calls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0 },
              };
            },
          };
        },
      }),
    ],
  };
};

/**
 * Every reranker family `--reranker <family>:<argument>` names: one line each, its descriptor in
 * its own folder (`components/rerankers/<family>/`).
 */
export const RERANKERS = {} as const;

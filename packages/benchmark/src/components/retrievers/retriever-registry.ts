/**
 * Every base retriever `--retriever` names: one line each, its descriptor in its own folder
 * (`components/retrievers/<name>/`). Its options, help, "has no effect" warnings and capabilities
 * all come from the descriptor.
 */
export const RETRIEVERS = {} as const;

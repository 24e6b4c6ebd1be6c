/**
 * Every embedder family `--embedder <family>:<model>` names: one line each, its descriptor in its
 * own folder (`components/embedders/<family>/`).
 */
export const EMBEDDERS = {} as const;

/**
 * One kind of component a plugin may bring (retrievers, stages, embedder and reranker families,
 * external memory systems, benchmarks): its line in the table `loadPlugins` reads. Each kind is
 * declared beside its registry, in the layer that owns it; the CLI puts the lines together
 * (cli/plugin-kinds.ts), so this loader names no kind.
 */
export type PluginKind = {
  /** The word its messages use: `retriever`, `embedder family`, `benchmark`. */
  readonly word: string;
  /** Its components by name: a plugin's name must be new to them. */
  registry(): Readonly<Record<string, unknown>>;
  /** What a plugin's function receives for this kind (its definer, parts it may reuse), merged into the plugin API. */
  readonly api?: Readonly<Record<string, unknown>>;
  /** Its `options` are lme run options (`ComponentOption`s, whose keys are lme's): a key lme owns is refused. */
  readonly runOptions?: true;
  /** What a descriptor of the kind lacks, as the end of a sentence after its name (`needs a create function`); undefined: usable. */
  lacks(descriptor: Readonly<Record<string, unknown>>): string | undefined;
  /** Adds it to lme's registries (a rule of the registry it breaks: thrown, one sentence); returns what takes it out again. */
  add(descriptor: never): () => void;
};

/**
 * The kinds a plugin's default export may hold, by key (`retrievers`, `benchmarks`). A kind may be
 * a function that imports it: it is called once the kinds before it are added, for a registry whose
 * module reads the others when imported (the providers' reads the run config, built from the
 * components' registries).
 */
export type PluginKinds = Readonly<Record<string, PluginKind | (() => Promise<PluginKind>)>>;

/**
 * A kind whose components are `ComponentDescriptor`s in a const-map registry (retrievers, stages,
 * embedder and reranker families): `needs` are the functions a descriptor must have.
 */
export function componentKind(
  word: string,
  registry: Readonly<Record<string, unknown>>,
  api: Readonly<Record<string, unknown>>,
  needs: readonly string[],
  lacksMore: PluginKind['lacks'] = () => undefined,
): PluginKind {
  const entries = registry as Record<string, unknown>;
  return {
    word,
    registry: () => registry,
    api,
    runOptions: true,
    lacks(descriptor) {
      const missing = needs.filter((name) => typeof descriptor[name] !== 'function');
      if (missing.length > 0) return `needs ${missing.map((name) => `a ${name} function`).join(' and ')}`;
      if (typeof descriptor.options !== 'object' || descriptor.options === null)
        return 'needs an options object';
      if (typeof descriptor.capabilities !== 'object' || descriptor.capabilities === null)
        return 'needs a capabilities object';
      return lacksMore(descriptor);
    },
    add(descriptor: { name: string }) {
      entries[descriptor.name] = descriptor;
      return () => {
        delete entries[descriptor.name];
      };
    },
  };
}

/**
 * The layer order of docs/architecture.md, checked by `pnpm lint`: a module imports only from its
 * own folder and from the layers below it (types included), never from a layer beside or above
 * it, and no import cycle of any length. Tests (`*.test.ts`) may import any layer.
 */

/** Bottom to top; folders on one line are beside each other and may not import each other. */
const LAYERS = {
  'search-core': [
    ['core'],
    ['http'],
    ['lexical', 'embedding', 'vector-index', 'llm', 'query'],
    ['retrievers', 'summarize'],
    ['stages'],
    ['rerank'],
    ['testing', 'index.ts'],
  ],
  benchmark: [
    ['components'],
    ['config', 'results'],
    ['dataset'],
    ['benchmarks', 'models'],
    ['metrics', 'errata'],
    ['providers', 'qa'],
    ['run', 'serve'],
    ['analysis', 'reference'],
    ['report'],
    ['cli', 'testing', 'index.ts'],
  ],
};

const escapeDots = (name) => name.replace(/[.]/g, '\\.');
/** A folder (`core` → `core/`) or a root file (`index.ts`) of the package's src. */
const part = (name) => (name.endsWith('.ts') ? escapeDots(name) + '$' : `${escapeDots(name)}/`);

function layerRules(pkg, layers) {
  const src = `^packages/${pkg}/src/`;
  return layers.flatMap((layer, index) => {
    const notBelow = layers.slice(index).flat();
    return layer.map((name) => {
      const forbidden = notBelow.filter((other) => other !== name);
      return {
        name: `${pkg}/${name}-imports-only-below`,
        comment: `${pkg} ${name} sits below ${forbidden.join(', ')}: it may not import them`,
        severity: 'error',
        from: { path: `${src}${part(name)}`, pathNot: '\\.test\\.ts$' },
        to: { path: `${src}(${forbidden.map(part).join('|')})` },
      };
    });
  });
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle (types included): one of its arrows points up',
      severity: 'error',
      from: { path: '^packages/' },
      to: { circular: true },
    },
    {
      name: 'search-core-knows-no-benchmark',
      comment: 'search-core knows nothing about benchmarks or CLIs',
      severity: 'error',
      from: { path: '^packages/search-core/' },
      to: { path: '^packages/benchmark/' },
    },
    {
      name: 'benchmark-folders-stand-alone',
      comment: 'a benchmark folder (benchmarks/<name>/) imports no other benchmark folder',
      severity: 'error',
      from: { path: '^packages/benchmark/src/benchmarks/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^packages/benchmark/src/benchmarks/[^/]+/',
        pathNot: '^packages/benchmark/src/benchmarks/$1/',
      },
    },
    {
      name: 'shared-benchmark-code-names-no-benchmark',
      comment:
        'the files beside the benchmark folders (record, corpus, judge type) serve every benchmark; only the registry names one',
      severity: 'error',
      from: {
        path: '^packages/benchmark/src/benchmarks/[^/]+\\.ts$',
        pathNot: '^packages/benchmark/src/benchmarks/benchmark-registry\\.ts$|\\.test\\.ts$',
      },
      to: { path: '^packages/benchmark/src/benchmarks/[^/]+/' },
    },
    ...Object.entries(LAYERS).flatMap(([pkg, layers]) => layerRules(pkg, layers)),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/|\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};

#!/usr/bin/env node
/**
 * No code outside a component's folder names it (issue 47): a non-test source file of
 * packages/benchmark/src may not select a retriever, an embedder family, a reranker family or a
 * provider by a string literal of its name; it asks the component's descriptor (capabilities,
 * options) instead. Run by `pnpm lint:components`; `--root <dir>` checks another tree (tests),
 * `--count` prints the findings per name first. A registry file missing from the tree fails (a
 * moved registry would otherwise leave its names unchecked).
 *
 * Names come from the tree, so a new component is covered with no edit here:
 * - retrievers, embedders, rerankers, stages: each folder of `components/<kind>/` and each key of the
 *   object literals of `components/<kind>/<kind-singular>-registry.ts`;
 * - providers: each key of the object literals of `providers/provider-registry.ts` and
 *   `providers/external-memory-registry.ts`. (providers/ also holds shared folders, `bridges/`,
 *   `external/`, `hosted/`, that no registry names: they are not providers.)
 * A component's home is its folder `components/<kind>/<name>/` and the folder (or, for a
 * descriptor imported from a file beside the registry, the file) its registry line imports its
 * descriptor from (`./mem0/descriptor.js` → `providers/mem0/`).
 *
 * What counts as naming: a string literal or template text that IS a name (`'session-aware'`),
 * or, for embedder and reranker families, that starts with `<family>:` (`'hf:'`,
 * `` `http:${url}` ``, `startsWith('openai:')`); a URL (`http://…`) is not a family prefix.
 * Longer texts that mention a name (help lines, messages) and import paths are not counted. It
 * is allowed in the component's home, in its kind's registry file, and in the public API
 * (`index.ts`); comments and tests (`*.test.ts`, and `testing/`, the helpers only tests import)
 * may name anything.
 *
 * Some words are also another vocabulary. For these alone a literal counts only where it selects
 * a component: compared (`===`, `!==`, `==`, `!=`) with, or a `case` of a switch on, an
 * expression whose text names a kind (retriever, embedder, reranker, stage, provider: `config.retriever`,
 * `providerName`) or that is a `kind` or `family` (`kind === 'http'`), the argument of
 * `startsWith`/`endsWith`/`includes`/`has`/`indexOf` on such an expression, an element of an array whose variable or property names a kind
 * (`ANSWERING_PROVIDERS = ['http']`), or the value of a property named after a kind
 * (`{ retriever: 'bm25' }`). The list and the reason for each word is `OTHER_VOCABULARY`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args[rootAt + 1] : join(import.meta.dirname, '..');
const src = join(root, 'packages/benchmark/src');

/** Each kind: its folder of components (whose subfolders are components) and its registry files. */
const KINDS = [
  {
    kind: 'retriever',
    folder: 'components/retrievers',
    registries: ['components/retrievers/retriever-registry.ts'],
    family: false,
  },
  {
    kind: 'embedder',
    folder: 'components/embedders',
    registries: ['components/embedders/embedder-registry.ts'],
    family: true,
  },
  {
    kind: 'reranker',
    folder: 'components/rerankers',
    registries: ['components/rerankers/reranker-registry.ts'],
    family: true,
  },
  {
    kind: 'stage',
    folder: 'components/stages',
    registries: ['components/stages/stage-registry.ts'],
    family: false,
  },
  {
    kind: 'provider',
    folder: undefined,
    registries: ['providers/provider-registry.ts', 'providers/external-memory-registry.ts'],
    family: false,
  },
];
const KIND_WORDS = /retriever|embedder|reranker|provider|stage/i;

/**
 * Words that are component names and also another vocabulary of the program: a literal of one
 * counts only where it selects a component (see the header).
 */
const OTHER_VOCABULARY = new Map([
  ['bm25', 'a route (`--routes bm25`, the Route type, ROUTE_SETS) as well as a retriever'],
  ['dense', 'a route (`--routes dense`, the Route type) and a session weight key as well as a retriever'],
  ['hybrid', 'a `--routes` value (bm25 and dense) as well as a retriever'],
  ['http', "a URL scheme and a ProviderIdentity's kind as well as a provider and a reranker family"],
  ['http:', "what URL's `protocol` holds for an http URL, as well as the reranker family's prefix"],
  ['llm', 'a `--summarizer` and `--contextual` value as well as a reranker family'],
  [
    'mmr',
    "a hit's route (search-core's MMR stage traces `routes.mmr`) and a Zep reranker as well as a stage",
  ],
  ['local', 'an ordinary word (local files, local time) as well as an embedder family'],
  [
    'oracle',
    "LongMemEval's oracle file (`dataset: 'oracle' | 's'` of the reference check) as well as a provider",
  ],
  ['pipeline', "an endpoint's role (`resolveOpenAiEndpoint(config, 'pipeline')`) as well as a provider"],
]);

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const local = (path) => relative(src, path).split(sep).join('/');
const parse = (path) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
const unwrap = (node) =>
  node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    ? unwrap(node.expression)
    : node;

/** name → { kind, family, homes: paths relative to src (a folder ends with /) }. */
const components = new Map();
function addComponent(name, spec, home) {
  const known = components.get(name) ?? { kinds: new Map() };
  const entry = known.kinds.get(spec.kind) ?? { family: spec.family, homes: new Set() };
  if (home) entry.homes.add(home);
  known.kinds.set(spec.kind, entry);
  components.set(name, known);
}
for (const spec of KINDS) {
  if (spec.folder && existsSync(join(src, spec.folder)))
    for (const entry of readdirSync(join(src, spec.folder)))
      if (statSync(join(src, spec.folder, entry)).isDirectory())
        addComponent(entry, spec, `${spec.folder}/${entry}/`);
  for (const registry of spec.registries) {
    if (!existsSync(join(src, registry))) {
      process.stderr.write(
        `packages/benchmark/src/${registry} is missing: the ${spec.kind} names are read from it (scripts/check-component-names.mjs KINDS names it).\n`,
      );
      process.exit(1);
    }
    const file = parse(join(src, registry));
    const imports = new Map();
    for (const statement of file.statements)
      if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings)
        for (const element of statement.importClause.namedBindings.elements ?? [])
          imports.set(element.name.text, statement.moduleSpecifier.text);
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const value = unwrap(declaration.initializer);
        if (!value || !ts.isObjectLiteralExpression(value)) continue;
        for (const property of value.properties) {
          if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) continue;
          const key = property.name;
          const name = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined;
          if (!name) continue;
          const initializer = ts.isPropertyAssignment(property)
            ? unwrap(property.initializer)
            : property.name;
          const module = ts.isIdentifier(initializer) ? imports.get(initializer.text) : undefined;
          let home;
          if (module?.startsWith('./')) {
            const target = posix.join(posix.dirname(registry), module.replace(/\.js$/, '.ts'));
            home = posix.dirname(target) === posix.dirname(registry) ? target : `${posix.dirname(target)}/`;
          }
          addComponent(name, spec, home);
        }
      }
    }
  }
}

/** The names of components a literal's text names, each with its kind (exact name or family prefix). */
function namedBy(text) {
  const found = [];
  for (const [name, { kinds }] of components)
    for (const [kind, entry] of kinds) {
      if (text === name) found.push({ name, kind, word: text });
      else if (entry.family && text.startsWith(`${name}:`) && !text.startsWith(`${name}://`))
        found.push({ name, kind, word: `${name}:` });
    }
  return found;
}

/** An expression that holds a component's name: its text names a kind, or it is a `kind`/`family`. */
const mentionsKind = (node) =>
  node !== undefined &&
  (KIND_WORDS.test(node.getText()) ||
    /^(kind|family)$/.test(ts.isPropertyAccessExpression(node) ? node.name.text : node.getText()));

/** Whether a literal stands where a component is selected (the rule for OTHER_VOCABULARY words). */
function selects(literal) {
  const parent = literal.parent;
  if (ts.isBinaryExpression(parent)) {
    const operator = parent.operatorToken.kind;
    const equality = [
      ts.SyntaxKind.EqualsEqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsEqualsToken,
      ts.SyntaxKind.EqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsToken,
    ].includes(operator);
    return equality && mentionsKind(parent.left === literal ? parent.right : parent.left);
  }
  if (ts.isCaseClause(parent)) return mentionsKind(parent.parent.parent.expression);
  if (ts.isCallExpression(parent) && ts.isPropertyAccessExpression(parent.expression)) {
    const method = parent.expression.name.text;
    return (
      ['startsWith', 'endsWith', 'includes', 'has', 'indexOf'].includes(method) &&
      mentionsKind(parent.expression.expression)
    );
  }
  if (ts.isPropertyAssignment(parent)) return KIND_WORDS.test(parent.name.getText());
  if (ts.isArrayLiteralExpression(parent)) {
    let holder = parent.parent;
    while (
      holder &&
      (ts.isAsExpression(holder) || ts.isSatisfiesExpression(holder) || ts.isNewExpression(holder))
    )
      holder = holder.parent;
    const named =
      holder && (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder))
        ? holder.name
        : undefined;
    return named !== undefined && KIND_WORDS.test(named.getText());
  }
  return false;
}

/** Where a file names a component outside its home: [{ line, name, kind, word }]. */
function violationsIn(path, where) {
  const file = parse(path);
  const found = [];
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      // An import or export path is where code lives, not a selection by name.
      const inPath =
        ts.isImportDeclaration(node.parent) ||
        ts.isExportDeclaration(node.parent) ||
        (ts.isCallExpression(node.parent) && node.parent.expression.kind === ts.SyntaxKind.ImportKeyword);
      const hits = inPath ? [] : namedBy(node.text);
      // A name several kinds share (`http`) is the component's own wherever one of them lives.
      const own = hits.some((hit) =>
        [...components.get(hit.name).kinds].some(([kind, { homes }]) => {
          const { registries } = KINDS.find((candidate) => candidate.kind === kind);
          const inHome = [...homes].some((h) => (h.endsWith('/') ? where.startsWith(h) : where === h));
          return inHome || registries.includes(where);
        }),
      );
      const ambiguous = hits.some((hit) => OTHER_VOCABULARY.has(hit.word)) && !ts.isTemplateHead(node);
      if (hits.length > 0 && !own && (!ambiguous || selects(node))) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        const kinds = [...new Set(hits.map((hit) => hit.kind))].join(' or ');
        found.push({ line, name: hits[0].name, kind: kinds, word: hits[0].word });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const problems = [];
for (const path of files(src)) {
  const where = local(path);
  if (where === 'index.ts') continue; // the public API
  if (where.startsWith('testing/')) continue; // helpers for tests only: test code, which may name anything
  for (const { line, name, kind, word } of violationsIn(path, where))
    problems.push(
      `packages/benchmark/src/${where}:${line} names the ${kind} "${name}" ('${word}') outside its folder and registry; ask its descriptor's capabilities or options instead.`,
    );
}
if (args.includes('--count')) {
  const counts = new Map();
  for (const problem of problems) {
    const key = / the ([\w ]+) "([^"]+)"/.exec(problem).slice(1).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [key, count] of [...counts].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`${count}\t${key}\n`);
}
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
const byKind = KINDS.map(
  ({ kind }) => `${[...components].filter(([, c]) => c.kinds.has(kind)).length} ${kind}s`,
);
process.stdout.write(`component names: none outside their folders and registries (${byKind.join(', ')})\n`);

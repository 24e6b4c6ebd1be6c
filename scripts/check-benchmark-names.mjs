#!/usr/bin/env node
/**
 * No code outside `benchmarks/<name>/` names a benchmark (issue 34): a non-test source file of
 * packages/benchmark/src outside a benchmark's folder may not hold a registered benchmark's name
 * (a folder of src/benchmarks/, which is its registry key) in a string literal, a template, an
 * import path or an identifier (case-insensitively, as a part: `locomoCategoryOf`,
 * `'../benchmarks/locomo/x.js'`). Comments may name benchmarks. The registry
 * (benchmarks/benchmark-registry.ts) is where the one line per benchmark goes.
 *
 * What still names one is listed in scripts/benchmark-names-allowed.json (file → names found
 * there), debt to pay down: a new occurrence fails, and so does an entry that no longer occurs,
 * so the list only shrinks. Run by `pnpm lint`; `--root <dir>` checks another tree (tests).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args[rootAt + 1] : join(import.meta.dirname, '..');
const src = join(root, 'packages/benchmark/src');
const benchmarksDir = join(src, 'benchmarks');
const allowedPath = join(root, 'scripts/benchmark-names-allowed.json');
const allowed = existsSync(allowedPath) ? JSON.parse(readFileSync(allowedPath, 'utf8')).files : {};

const names = readdirSync(benchmarksDir).filter((entry) =>
  statSync(join(benchmarksDir, entry)).isDirectory(),
);
const REGISTRY = 'benchmarks/benchmark-registry.ts';
/**
 * The common record every benchmark maps onto keeps the name of the format it was taken from
 * (LongMemEval's): its module and type are shared code, not that benchmark's, and renaming them
 * would touch some 60 files at once. These texts alone are not counted as naming the benchmark.
 */
const COMMON_RECORD = new Set(['LongMemEvalRecord', 'LongMemEvalRecordSchema']);
const COMMON_RECORD_MODULE = /(^|\/)longmemeval-record(\.js)?$/;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The benchmark names a file holds outside comments, each with the text that holds it. */
function namesIn(path) {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map();
  const visit = (node) => {
    let text;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) text = node.text;
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) text = node.text;
    if (text !== undefined && !COMMON_RECORD.has(text) && !COMMON_RECORD_MODULE.test(text)) {
      const lower = text.toLowerCase();
      for (const name of names)
        if (lower.includes(name)) {
          const where = found.get(name) ?? new Set();
          where.add(text.length > 60 ? `${text.slice(0, 57)}...` : text);
          found.set(name, where);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const problems = [];
const seen = new Set();
for (const path of sourceFiles(src)) {
  const local = relative(src, path).split(sep).join('/');
  const folder = /^benchmarks\/([^/]+)\//.exec(local)?.[1];
  if (folder && names.includes(folder)) continue; // a benchmark's own folder
  if (COMMON_RECORD_MODULE.test(local.replace(/\.ts$/, ''))) continue; // the common record's module
  const found = namesIn(path);
  for (const [name, texts] of found) {
    if (local === REGISTRY) continue; // the registry lines
    const key = `${local}: ${name}`;
    if ((allowed[local] ?? []).includes(name)) {
      seen.add(key);
      continue;
    }
    problems.push(
      `packages/benchmark/src/${local} names the benchmark "${name}" outside benchmarks/${name}/ (${[...texts].slice(0, 3).join(', ')}); move that code into the benchmark's folder and reach it through the Benchmark contract.`,
    );
  }
}
for (const [local, list] of Object.entries(allowed))
  for (const name of list)
    if (!seen.has(`${local}: ${name}`))
      problems.push(
        `scripts/benchmark-names-allowed.json lists ${local} for "${name}", which it no longer names: remove the entry.`,
      );
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `benchmark names: none outside their folders (${names.join(', ')}), beyond the ${Object.keys(allowed).length} files listed in scripts/benchmark-names-allowed.json\n`,
);

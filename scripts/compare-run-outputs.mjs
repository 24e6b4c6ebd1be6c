#!/usr/bin/env node
/**
 * Are two runs' outputs the same, latency aside? Issue 47's acceptance ("every output unchanged,
 * before vs after"): run the same commands with the code before and after a change
 * (scripts/equivalence-runs.sh), then
 *
 *   node scripts/compare-run-outputs.mjs <before> <after> [--outputs-only] [--max <n>]
 *
 * <before> and <after> are two run folders, or two parents whose run folders of the same names are
 * compared (a run folder in only one of them is a difference). Compared, with what legitimately
 * differs from one run to the next masked:
 * - summary.json: whole, without its run id, latency metrics (`latency.*`), ingest wall times
 *   (`ms_*`, `*_ms_*`) and the provider URL's port;
 * - samples.jsonl: line by line, every field (question id, metrics, hits with their ids, ranks,
 *   scores and route scores, answers, errors) but `latency_ms`;
 * - report.md: the text, with run ids, times in ms and loopback ports masked;
 * - config.json (unless --outputs-only): the resolved config without the paths of this machine
 *   (out, cacheDir, modelDir, dataDir), the run id and loopback ports (--provider-url); the dataset
 *   checksums, the number of questions and the fingerprint's rankings, dataset and models hashes. The setup/config/code hashes are not compared:
 *   the code differs by design, and issue 47 lets the settings hash change once (printed as a note).
 * - the set of output files (summary.json, samples.jsonl, report.md, config.json, explain.jsonl,
 *   hypotheses.jsonl, summary.csv, samples.csv) each folder holds.
 * Prints one line per run, `<run>: same` or its first differences, each named by file and field,
 * and exits 1 on any difference (2 on bad arguments).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const OUTPUT_FILES = [
  'config.json',
  'summary.json',
  'samples.jsonl',
  'report.md',
  'summary.csv',
  'samples.csv',
  'explain.jsonl',
  'hypotheses.jsonl',
];

function usage(message) {
  process.stderr.write(
    `compare-run-outputs: ${message}\nusage: node scripts/compare-run-outputs.mjs <before> <after> [--outputs-only] [--max <n>]\n`,
  );
  process.exit(2);
}

function parseArguments(argv) {
  const folders = [];
  let outputsOnly = false;
  let max = 2;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--outputs-only') outputsOnly = true;
    else if (argument === '--max') {
      max = Number(argv[++index]);
      if (!Number.isInteger(max) || max < 1) usage('--max takes a whole number of at least 1');
    } else if (argument.startsWith('-')) usage(`unknown option ${argument}`);
    else folders.push(argument);
  }
  if (folders.length !== 2) usage('give two folders: before and after');
  for (const folder of folders) {
    if (!existsSync(folder) || !statSync(folder).isDirectory()) usage(`${folder} is not a folder`);
  }
  return { before: folders[0], after: folders[1], outputsOnly, max };
}

const isRunFolder = (dir) => existsSync(join(dir, 'summary.json')) || existsSync(join(dir, 'config.json'));

/** The pairs of run folders to compare: [name, before dir | undefined, after dir | undefined]. */
function runPairs(before, after) {
  if (isRunFolder(before) || isRunFolder(after)) return [[basename(after), before, after]];
  const runs = (dir) =>
    readdirSync(dir).filter(
      (entry) => statSync(join(dir, entry)).isDirectory() && isRunFolder(join(dir, entry)),
    );
  const names = [...new Set([...runs(before), ...runs(after)])].sort();
  if (names.length === 0) usage(`neither ${before} nor ${after} holds a run folder`);
  return names.map((name) => [
    name,
    existsSync(join(before, name)) ? join(before, name) : undefined,
    existsSync(join(after, name)) ? join(after, name) : undefined,
  ]);
}

const show = (value) => {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** Where two lines part: `…text before|before's rest… → …|after's rest…` around the first change. */
function lineChange(before, after) {
  if (before === undefined || after === undefined) return `${show(before)} → ${show(after)}`;
  let at = 0;
  while (at < before.length && before[at] === after[at]) at++;
  const from = Math.max(0, at - 30);
  const part = (line) =>
    `${from > 0 ? '…' : ''}${line.slice(from, at + 40)}${line.length > at + 40 ? '…' : ''}`;
  return `${JSON.stringify(part(before))} → ${JSON.stringify(part(after))}`;
}

/** Differences between two JSON values, as `path: before → after`, depth first, in key order. */
function diffJson(before, after, path, out) {
  if (Object.is(before, after)) return;
  const bothObjects =
    before !== null && after !== null && typeof before === 'object' && typeof after === 'object';
  if (!bothObjects || Array.isArray(before) !== Array.isArray(after)) {
    out.push(`${path}: ${show(before)} → ${show(after)}`);
    return;
  }
  if (Array.isArray(before)) {
    const length = Math.max(before.length, after.length);
    if (before.length !== after.length) out.push(`${path}: ${before.length} → ${after.length} items`);
    for (let index = 0; index < Math.min(length, before.length, after.length); index++)
      diffJson(before[index], after[index], `${path}[${index}]`, out);
    return;
  }
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  for (const key of keys) diffJson(before[key], after[key], path === '' ? key : `${path}.${key}`, out);
}

/** `value` without the keys `drop` says to drop (called with the key and its parent path). */
function masked(value, drop, path = '') {
  if (Array.isArray(value)) return value.map((item, index) => masked(item, drop, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return value;
  const kept = {};
  for (const [key, item] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!drop(key, at)) kept[key] = masked(item, drop, at);
  }
  return kept;
}

const LATENCY_METRIC = /^latency[._]/;
const WALL_TIME = /(^|_)ms(_|$)|_seconds$|^seconds$/;

function maskSummary(summary) {
  const kept = masked(
    summary,
    (key, at) =>
      at === 'run_id' || LATENCY_METRIC.test(key) || (at.startsWith('ingest.') && WALL_TIME.test(key)),
  );
  if (typeof kept.provider?.url === 'string') kept.provider.url = maskPorts(kept.provider.url);
  return kept;
}

const maskSample = (sample) => masked(sample, (_key, at) => at === 'latency_ms');

const maskPorts = (text) => text.replace(/\b(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '$1:<port>');

function maskReport(text, runIds) {
  let out = maskPorts(text).replace(/\d+(\.\d+)?( ?)ms\b/g, '<t>$2ms');
  const longestFirst = runIds.filter(Boolean).sort((a, b) => b.length - a.length);
  for (const id of longestFirst) out = out.split(id).join('<run-id>');
  return out;
}

/** The fields of config.json a change of code must leave alone. */
function maskConfig(manifest) {
  const machine = new Set(['out', 'cacheDir', 'modelDir', 'runId', 'dataDir']);
  const kept = {
    config: masked(manifest.config ?? {}, (_key, at) => machine.has(at)),
    dataset: { sha256: manifest.dataset?.sha256, file_sha256: manifest.dataset?.file_sha256 },
    questions_total: manifest.questions_total,
    fingerprint: {
      rankings: manifest.fingerprint?.rankings,
      dataset: manifest.fingerprint?.dataset,
      models: manifest.fingerprint?.models,
    },
  };
  return JSON.parse(maskPorts(JSON.stringify(kept)));
}

function readJson(file, problems) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${basename(file)} does not read: ${error.message}`);
    return undefined;
  }
}

function readLines(file, problems) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.map((line, index) => {
    try {
      return JSON.parse(line);
    } catch (error) {
      problems.push(`${basename(file)} line ${index + 1} does not read: ${error.message}`);
      return undefined;
    }
  });
}

/** The differences between two run folders, each a short named sentence; notes do not count. */
function compareRuns(beforeDir, afterDir, { outputsOnly = false } = {}) {
  const differences = [];
  const notes = [];
  const present = (dir) => OUTPUT_FILES.filter((name) => existsSync(join(dir, name)));
  const beforeFiles = present(beforeDir);
  const afterFiles = present(afterDir);
  const onlyBefore = beforeFiles.filter((name) => !afterFiles.includes(name));
  const onlyAfter = afterFiles.filter((name) => !beforeFiles.includes(name));
  if (onlyBefore.length > 0) differences.push(`files only before: ${onlyBefore.join(', ')}`);
  if (onlyAfter.length > 0) differences.push(`files only after: ${onlyAfter.join(', ')}`);
  const both = (name) => beforeFiles.includes(name) && afterFiles.includes(name);

  let runIds = [];
  if (both('summary.json')) {
    const before = readJson(join(beforeDir, 'summary.json'), differences);
    const after = readJson(join(afterDir, 'summary.json'), differences);
    runIds = [before?.run_id, after?.run_id];
    if (before && after) {
      const found = [];
      diffJson(maskSummary(before), maskSummary(after), '', found);
      differences.push(...found.map((line) => `summary.json ${line}`));
    }
  }
  if (both('samples.jsonl')) {
    const before = readLines(join(beforeDir, 'samples.jsonl'), differences);
    const after = readLines(join(afterDir, 'samples.jsonl'), differences);
    if (before.length !== after.length)
      differences.push(`samples.jsonl lines: ${before.length} → ${after.length}`);
    for (let index = 0; index < Math.min(before.length, after.length); index++) {
      if (!before[index] || !after[index]) continue;
      const found = [];
      diffJson(maskSample(before[index]), maskSample(after[index]), '', found);
      const id = before[index].question_id;
      differences.push(...found.map((line) => `samples.jsonl line ${index + 1} (${id}) ${line}`));
    }
  }
  if (both('report.md')) {
    const before = maskReport(readFileSync(join(beforeDir, 'report.md'), 'utf8'), runIds).split('\n');
    const after = maskReport(readFileSync(join(afterDir, 'report.md'), 'utf8'), runIds).split('\n');
    for (let index = 0; index < Math.max(before.length, after.length); index++) {
      if (before[index] !== after[index])
        differences.push(`report.md line ${index + 1}: ${lineChange(before[index], after[index])}`);
    }
  }
  if (!outputsOnly && both('config.json')) {
    const before = readJson(join(beforeDir, 'config.json'), differences);
    const after = readJson(join(afterDir, 'config.json'), differences);
    if (before && after) {
      const found = [];
      diffJson(maskConfig(before), maskConfig(after), '', found);
      differences.push(...found.map((line) => `config.json ${line}`));
      if (before.fingerprint?.config !== after.fingerprint?.config)
        notes.push('config.json fingerprint.config (the settings hash) changed');
    }
  }
  return { differences, notes };
}

/** `12 differences: summary.json (2): a; b; samples.jsonl (10): c; d; and 8 more`: the first of each file. */
function describe(differences, max) {
  const byFile = new Map();
  for (const difference of differences) {
    const file = difference.split(/[ :]/, 1)[0];
    byFile.set(file, [...(byFile.get(file) ?? []), difference]);
  }
  const parts = [...byFile].map(([file, found]) => {
    const more = found.length > max ? `; and ${found.length - max} more` : '';
    const shown = found.slice(0, max).map((difference) => difference.slice(file.length).replace(/^ /, ''));
    return `${file} (${found.length}): ${shown.join('; ')}${more}`;
  });
  return `${differences.length} difference${differences.length === 1 ? '' : 's'}: ${parts.join(' | ')}`;
}

function main() {
  const { before, after, outputsOnly, max } = parseArguments(process.argv.slice(2));
  let failed = false;
  for (const [name, beforeDir, afterDir] of runPairs(before, after)) {
    if (!beforeDir || !afterDir) {
      failed = true;
      process.stdout.write(`${name}: only ${beforeDir ? 'before' : 'after'} (${beforeDir ?? afterDir})\n`);
      continue;
    }
    const { differences, notes } = compareRuns(beforeDir, afterDir, { outputsOnly });
    const note = notes.length > 0 ? ` (note: ${notes.join('; ')})` : '';
    if (differences.length === 0) {
      process.stdout.write(`${name}: same${note}\n`);
      continue;
    }
    failed = true;
    process.stdout.write(`${name}: ${describe(differences, max)}${note}\n`);
  }
  process.exit(failed ? 1 : 0);
}

main();

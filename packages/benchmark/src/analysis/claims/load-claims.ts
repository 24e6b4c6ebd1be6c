import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BENCHMARKS } from '../../benchmarks/benchmark-registry.js';
import { closeNames } from '../../config/close-names.js';
import { loadPreset } from '../../config/presets.js';
import { READ_LIMITS, readGuardedTextFile } from '../../config/read-guarded-file.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { checkRunConfigKeys, RUN_CONFIG_KEYS } from '../../config/run-config-file.js';
import { parseRunSections } from '../../config/run-sections.js';
import { CUTOFFS } from '../../metrics/retrieval-metrics.js';
import { type Claim, claimSchema } from './claim-schema.js';
import { parseVariant } from './metric-variants.js';

/** configs/claims/: one file per claim; listing the folder is the registry. */
export const CLAIMS_DIR = resolve(import.meta.dirname, '../../../../../configs/claims');

/** The official metrics a claim may print beside its own: lme's retrieval names and QA accuracy. */
const OFFICIAL_METRICS: ReadonlySet<string> = new Set([
  ...['session', 'turn'].flatMap((level) =>
    ['recall_any', 'recall_all', 'ndcg_any'].flatMap((kind) => CUTOFFS.map((k) => `${level}.${kind}@${k}`)),
  ),
  'qa.accuracy',
  'qa.accuracy_strict',
]);

/** The claim ids of a folder, sorted. */
export function listClaimIds(dir = CLAIMS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** The run config a claim's recipe resolves to (its preset's keys, then its own). */
export function recipeConfig(claim: Claim): RunConfigInput {
  const preset = claim.recipe.preset === undefined ? {} : loadPreset(claim.recipe.preset).config;
  return { ...preset, ...(claim.recipe.config as RunConfigInput) };
}

/**
 * Reads and checks one claim file; anything wrong is one sentence naming the file and the field
 * (an unknown metric, benchmark, preset or run option included).
 */
export function readClaim(path: string): Claim {
  const id = path.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
  let value: unknown;
  try {
    value = JSON.parse(readGuardedTextFile(path, { maxBytes: READ_LIMITS.small, links: 'follow' }));
  } catch (error) {
    throw new Error(`${path}: not a readable JSON claim (${(error as Error).message}).`);
  }
  const parsed = claimSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path}: ${issue.path.join('.') || '(claim)'}: ${issue.message}.`);
  }
  const claim: Claim = { ...parsed.data, id, path };
  const refuse = (field: string, message: string): never => {
    throw new Error(`${path}: ${field}: ${message}.`);
  };
  const benchmarkNames = Object.keys(BENCHMARKS);
  if (!benchmarkNames.includes(claim.benchmark.name))
    refuse(
      'benchmark.name',
      `unknown benchmark "${claim.benchmark.name}" (known: ${benchmarkNames.join(', ')})`,
    );
  claim.published.forEach((figure, index) => {
    try {
      parseVariant(figure.metric);
    } catch (error) {
      refuse(`published.${index}.metric`, (error as Error).message);
    }
  });
  if (!OFFICIAL_METRICS.has(claim.official)) {
    const close = closeNames(claim.official, [...OFFICIAL_METRICS]);
    refuse(
      'official',
      `unknown metric "${claim.official}"${close.length > 0 ? ` (closest: ${close[0]})` : ''}`,
    );
  }
  for (const key of claim.needs?.settings ?? [])
    if (!RUN_CONFIG_KEYS.includes(key)) refuse('needs.settings', `unknown run config key "${key}"`);
  checkRunConfigKeys(claim.recipe.config, `${path}: recipe.config`);
  try {
    parseRunSections(recipeConfig(claim));
  } catch (error) {
    refuse('recipe', (error as Error).message.replace(/\.$/, ''));
  }
  return claim;
}

/** Every claim of a folder, each checked. */
export function loadClaims(dir = CLAIMS_DIR): Claim[] {
  return listClaimIds(dir).map((id) => readClaim(join(dir, `${id}.json`)));
}

/** One claim by id; an unknown id lists the known ones. */
export function claimNamed(id: string, dir = CLAIMS_DIR): Claim {
  const known = listClaimIds(dir);
  if (!known.includes(id)) {
    const close = closeNames(id, known);
    throw new Error(
      `Unknown claim "${id}"${close.length > 0 ? ` (did you mean ${close[0]}?)` : ''}; known: ${known.join(', ')}.`,
    );
  }
  return readClaim(join(dir, `${id}.json`));
}

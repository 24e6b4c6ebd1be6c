import { datasetRecords } from '../../benchmarks/load-dataset.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { flagOfKey } from '../../config/run-options.js';
import { type BenchmarkResult, runBenchmark } from '../../run/run-benchmark.js';
import { readRun } from '../read-run.js';
import { writeClaimCheck } from './claim-check-file.js';
import type { Claim } from './claim-schema.js';
import { type ClaimMeasurement, measureClaim } from './measure-claim.js';

/**
 * The one sentence saying what a claim needs that is missing (an environment variable holding a
 * key, a service's address: a setting no layer of the run's `input` sets), or undefined when it can run.
 */
export function missingNeeds(
  claim: Claim,
  environment: NodeJS.ProcessEnv,
  input: Readonly<Record<string, unknown>>,
): string | undefined {
  const missing = [
    ...(claim.needs?.env ?? []).filter((name) => !environment[name]),
    ...(claim.needs?.settings ?? []).filter((key) => input[key] === undefined).map((key) => flagOfKey(key)),
  ];
  if (missing.length === 0) return undefined;
  const service = claim.needs?.service ? ` (${claim.needs.service})` : '';
  return `Claim ${claim.id} needs ${missing.join(' and ')} set${service}; it was not run.`;
}

/** The evidence sessions of the questions a run holds, read from its dataset file. */
export async function evidenceSessions(
  datasetPath: string,
  questionIds: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const gold = new Map<string, string[]>();
  for await (const record of datasetRecords(datasetPath)) {
    if (questionIds.has(record.question_id)) gold.set(record.question_id, record.answer_session_ids);
  }
  return gold;
}

/** A run folder measured against a claim: claim.json written beside its outputs. */
export async function measureRunFolder(claim: Claim, dir: string): Promise<ClaimMeasurement> {
  const run = readRun(dir);
  const gold = await evidenceSessions(
    run.config.dataset.path,
    new Set(run.samples.map((sample) => sample.question_id)),
  );
  const measurement = measureClaim(
    claim,
    {
      run_id: run.config.run_id,
      samples: run.samples,
      dataset_sha256: run.config.dataset.sha256,
      ...(run.summary ? { summary: run.summary } : {}),
    },
    gold,
  );
  writeClaimCheck(run.dir, measurement);
  return measurement;
}

/** Runs a claim's recipe (as the run's config `input`) as an ordinary run, then measures its folder against the claim. */
export async function checkClaim(
  claim: Claim,
  input: RunConfigInput,
  dependencies: Parameters<typeof runBenchmark>[1] = {},
): Promise<{ result: BenchmarkResult; measurement: ClaimMeasurement }> {
  const result = await runBenchmark(input, dependencies);
  return { result, measurement: await measureRunFolder(claim, result.dir) };
}

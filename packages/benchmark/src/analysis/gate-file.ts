import { z } from 'zod';
import { READ_LIMITS, readGuardedJsonFile } from '../config/read-guarded-file.js';
import { parseThreshold, type Threshold } from './gate-threshold.js';

/**
 * A gate file (`configs/gates/<name>.json`), for CI:
 *
 * ```json
 * {
 *   "min": { "session.recall_all@5": 0.85, "multi-session:session.recall_all@5": 0.7 },
 *   "max": { "latency.retrieve_ms.p95": 20 },
 *   "baseline": "results/baselines/ci-s-subset/summary.json",
 *   "maxDrop": 0.02,
 *   "perType": false,
 *   "metrics": ["session.recall_all@5", "session.recall_any@5"],
 *   "allowErrors": 0,
 *   "allowSubset": false,
 *   "allowMissingMetrics": false
 * }
 * ```
 *
 * `min` keys are `[<question type>:]<metric>` that must be >= the value, `max` keys must be <=;
 * `baseline` is a run folder or summary.json, relative to the current directory; every metric both
 * summaries have (or those in `metrics`) may drop by at most `maxDrop` (absolute, default 0),
 * overall and, with `perType`, per question type. The gate also fails when the run has failed
 * questions (more than `allowErrors`, default 0), when it evaluated no check, and when the run's
 * questions differ from the baseline's (unless `allowSubset`). A metric the file or the
 * baseline names that the run lacks fails its check (unless `allowMissingMetrics`: skipped, said so). Every key is optional. Command-line flags
 * override the file: a `--min`/`--max` on the same metric and question type replaces the file's
 * bound, other flags add bounds; `--baseline`, `--max-drop`, `--per-type`, `--metrics`,
 * `--allow-errors` and `--allow-subset` replace the file's values.
 */
export type GateSpec = {
  thresholds: Threshold[];
  baseline?: string;
  maxDrop?: number;
  perType?: boolean;
  metrics?: string[];
  allowErrors?: number;
  allowSubset?: boolean;
  allowMissingMetrics?: boolean;
};

const boundsSchema = z.record(z.string().min(1), z.number());

const gateFileSchema = z
  .object({
    min: boundsSchema.optional(),
    max: boundsSchema.optional(),
    baseline: z.string().min(1).optional(),
    maxDrop: z.number().min(0).optional(),
    perType: z.boolean().optional(),
    metrics: z.array(z.string().min(1)).min(1).optional(),
    allowErrors: z.number().int().min(0).optional(),
    allowSubset: z.boolean().optional(),
    allowMissingMetrics: z.boolean().optional(),
  })
  .strict();

/** Reads and validates a gate file; errors name the file and the key at fault. */
export function readGateFile(path: string): GateSpec {
  const value = readGuardedJsonFile(path, {
    what: `Gate file ${path}`,
    maxBytes: READ_LIMITS.small,
    links: 'follow',
  });
  const parsed = gateFileSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new Error(`Gate file ${path} is invalid: ${problems.join('; ')}.`);
  }
  const file = parsed.data;
  const thresholds: Threshold[] = [];
  try {
    for (const [key, value] of Object.entries(file.min ?? {}))
      thresholds.push(parseThreshold(`${key}>=${value}`));
    for (const [key, value] of Object.entries(file.max ?? {}))
      thresholds.push(parseThreshold(`${key}<=${value}`));
  } catch (error) {
    throw new Error(`Gate file ${path}: ${(error as Error).message}`);
  }
  const spec: GateSpec = { thresholds };
  if (file.baseline !== undefined) spec.baseline = file.baseline;
  if (file.maxDrop !== undefined) spec.maxDrop = file.maxDrop;
  if (file.perType !== undefined) spec.perType = file.perType;
  if (file.metrics !== undefined) spec.metrics = file.metrics;
  if (file.allowErrors !== undefined) spec.allowErrors = file.allowErrors;
  if (file.allowSubset !== undefined) spec.allowSubset = file.allowSubset;
  if (file.allowMissingMetrics !== undefined) spec.allowMissingMetrics = file.allowMissingMetrics;
  return spec;
}

function boundKey(threshold: Threshold): string {
  const lower = threshold.operator === '>=' || threshold.operator === '>';
  return `${threshold.scope}:${threshold.metric}:${lower ? 'min' : 'max'}`;
}

/** The file's spec with the command line's on top (see GateSpec for the rules). */
export function mergeGateSpecs(file: GateSpec, flags: Partial<GateSpec>): GateSpec {
  const overridden = new Set((flags.thresholds ?? []).map(boundKey));
  const merged: GateSpec = {
    ...file,
    thresholds: [
      ...file.thresholds.filter((threshold) => !overridden.has(boundKey(threshold))),
      ...(flags.thresholds ?? []),
    ],
  };
  if (flags.baseline !== undefined) merged.baseline = flags.baseline;
  if (flags.maxDrop !== undefined) merged.maxDrop = flags.maxDrop;
  if (flags.perType !== undefined) merged.perType = flags.perType;
  if (flags.metrics !== undefined) merged.metrics = flags.metrics;
  if (flags.allowErrors !== undefined) merged.allowErrors = flags.allowErrors;
  if (flags.allowSubset !== undefined) merged.allowSubset = flags.allowSubset;
  if (flags.allowMissingMetrics !== undefined) merged.allowMissingMetrics = flags.allowMissingMetrics;
  return merged;
}

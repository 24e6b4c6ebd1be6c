import type { Run } from './read-run.js';

export type RunLabel = {
  runId: string;
  dir: string;
  /** `label` from config.json (or summary.json), when the run has one. */
  label?: string;
  /** Failed questions (`sample.error` set): they are in no mean and no test. */
  errors: number;
};

/** The run as compare names it: its run id, folder, label when it has one, and failed questions. */
export function runLabel(run: Run): RunLabel {
  const configured = (run.config.config as { label?: unknown }).label;
  const summarized = (run.summary as { label?: unknown } | undefined)?.label;
  const label =
    typeof configured === 'string' ? configured : typeof summarized === 'string' ? summarized : undefined;
  return {
    runId: run.config.run_id,
    dir: run.dir,
    ...(label === undefined || label === '' ? {} : { label }),
    errors: run.samples.filter((sample) => sample.error !== null).length,
  };
}

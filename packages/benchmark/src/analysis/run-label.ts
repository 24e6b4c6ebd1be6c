import { describeProvider } from '../results/provider-identity.js';
import type { Run } from './read-run.js';

export type RunLabel = {
  runId: string;
  dir: string;
  /** `label` from config.json (or summary.json), when the run has one. */
  label?: string;
  /** Failed questions (`sample.error` set): they are in no mean and no test. */
  errors: number;
  /** The errata the run applied (`--errata`): name@version, questions touched and excluded. */
  errata?: { name: string; touched: number; excluded: number };
  /** An external system measured (config.json `provider`): `my-memory 1.4.0 at http://…`. */
  provider?: string;
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
    ...appliedErrata(run),
    ...(run.config.provider?.url ? { provider: describeProvider(run.config.provider) } : {}),
  };
}

function appliedErrata(run: Run): Pick<RunLabel, 'errata'> {
  const touched = run.samples.filter((sample) => sample.errata !== undefined);
  const recorded = run.config.errata;
  const name = recorded ? `${recorded.name}@${recorded.version}` : touched[0]?.errata?.errata;
  if (name === undefined) return {};
  return {
    errata: {
      name,
      touched: touched.length,
      excluded: touched.filter((sample) => sample.errata?.excluded).length,
    },
  };
}

/** How compare and the report name a run's errata: `longmemeval-s@1 (17 questions touched, 2 excluded)` or `none (official labels)`. */
export function describeErrata(label: Pick<RunLabel, 'errata'>): string {
  if (!label.errata) return 'none (official labels)';
  const { name, touched, excluded } = label.errata;
  return `${name} (${touched} question${touched === 1 ? '' : 's'} touched, ${excluded} excluded)`;
}

import { BENCHMARKS } from '../../benchmarks/benchmark-registry.js';
import { findErrataFor, type LoadedErrata, loadErrata } from '../../errata/load-errata.js';
import { formatHypothesisLine } from '../../qa/hypotheses.js';
import type { Sample } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import { judgeOf, readerPromptOf } from '../benchmark-defaults.js';
import { aggregateMetrics } from './aggregate-metrics.js';
import { renderSummaryTable } from './render-table.js';
import type { RunManifest } from './run-manifest.js';
import { renderErrataLine } from './summarize-errata.js';
import { renderIngestLine } from './summarize-ingest.js';
import { samplesCsv, summaryCsv } from './write-csv.js';

export type RunResult = {
  dir: string;
  summary: Summary;
  table: string;
  /** Set when --max-cost stopped the run early; finished questions are all saved. */
  stoppedAtCost?: number;
};

/**
 * summary.json, summary.csv, samples.csv, report.md and hypotheses.jsonl of a run, from its
 * samples (in dataset order).
 */
export function writeRunOutputs(
  folder: {
    dir: string;
    writeJson(name: string, value: unknown): void;
    writeText(name: string, text: string): void;
  },
  manifest: RunManifest,
  samples: readonly Sample[],
  /** Why the run stopped early, when it did: recorded in summary.json and atop the table. */
  partial?: string,
): RunResult {
  const { config } = manifest;
  const exclusion = config.convention === 'official' ? config.exclusion : 'A';
  const summary = aggregateMetrics({
    runId: manifest.run_id,
    dataset: config.dataset,
    convention: config.convention,
    exclusion,
    samples,
    label: config.label,
    ...(manifest.provider === undefined ? {} : { provider: manifest.provider }),
    qa: {
      judge: judgeOf(config),
      judge_model: config.judgeModel,
      answer_source: config.answers ?? 'reader',
      ...(config.judgeSamples > 1
        ? { judge_samples: config.judgeSamples, judge_temperature: config.judgeTemperature ?? 0 }
        : {}),
      ...(config.readerModel === undefined ? {} : { reader_model: config.readerModel }),
      ...(config.answers === 'provider' ? {} : { reader_prompt: readerPromptOf(config) }),
    },
    errata: runErrata(manifest),
  });
  if (partial !== undefined) summary.partial = { reason: partial };
  if (manifest.mixed) {
    summary.mixed = {
      setups: manifest.mixed.length,
      changes: manifest.mixed.flatMap((setup) => setup.changes),
    };
  }
  const table =
    (partial === undefined
      ? ''
      : `PARTIAL RUN: ${partial}; the table covers the finished questions only.\n\n`) +
    renderSummaryTable(summary) +
    Object.values(BENCHMARKS)
      .map((benchmark) => benchmark.tables?.(summary, samples) ?? '')
      .join('') +
    (summary.errata ? `\n${renderErrataLine(summary.errata)}\n` : '') +
    (summary.ingest ? `\n${renderIngestLine(summary.ingest)}\n` : '');
  folder.writeJson('summary.json', summary);
  folder.writeText('summary.csv', summaryCsv(summary));
  folder.writeText('samples.csv', samplesCsv(samples, config.label, { exclusion }));
  folder.writeText('report.md', table);
  const answered = samples.filter((sample) => sample.hypothesis !== null);
  if (answered.length > 0) {
    // Written once, whole, in dataset order, so resumed and merged runs give the official file too.
    folder.writeText(
      'hypotheses.jsonl',
      answered
        .map((sample) =>
          formatHypothesisLine({ questionId: sample.question_id, hypothesis: sample.hypothesis! }),
        )
        .join(''),
    );
  }
  return { dir: folder.dir, summary, table };
}

/**
 * The errata a run's summary reports: those it applied (config.json's `errata`), else those
 * written for its dataset file (found by checksum), which only state the ceiling. An errata file
 * that no longer reads is left out of a report, never fatal.
 */
function runErrata(manifest: RunManifest): { file: LoadedErrata; applied: boolean } | undefined {
  try {
    const applied = manifest.errata?.path ?? manifest.config.errata;
    if (applied !== undefined) return { file: loadErrata(applied), applied: true };
    const known = findErrataFor([manifest.dataset.sha256, manifest.dataset.file_sha256]);
    return known ? { file: known, applied: false } : undefined;
  } catch {
    return undefined;
  }
}

import { bootstrapMeanInterval, wilsonInterval } from '../../qa/qa-metrics.js';
import { inMeans, judgeScore, type Sample } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import type { Claim } from './claim-schema.js';
import { parseVariant, type VariantQuestion } from './metric-variants.js';

export type Interval = { low: number; high: number };

/** One figure measured here: the mean, its 95% interval and the questions it counts. */
export type MeasuredFigure = { value: number; n: number; ci95: Interval | null };

/** A published figure beside what this run measured, overall and per published type. */
export type FigureCheck = {
  metric: string;
  published: number;
  measured: MeasuredFigure | null;
  by_type: { type: string; published: number; measured: MeasuredFigure | null }[];
};

/** What `lme claims check` records in the run folder (claim.json) and prints. */
export type ClaimMeasurement = {
  claim: string;
  run_id: string;
  figures: FigureCheck[];
  /** The official metric of the same run, from its summary.json. */
  official: { metric: string; value: number | null; n: number | null };
  /** SHA-256 of the dataset text the claim names and of the one this run read (null: not recorded). */
  dataset: { claimed: string; measured: string | null };
  /** The questions this run holds, against the published count. */
  questions: { measured: number; published: number };
  verdict: 'reproduced' | 'not reproduced';
  /** One line: within the interval, or off by how much and on which types. */
  explanation: string;
};

function measure(values: readonly number[], binary: boolean): MeasuredFigure | null {
  if (values.length === 0) return null;
  const value = values.reduce((total, each) => total + each, 0) / values.length;
  const ci95 = (binary ? wilsonInterval(value, values.length) : bootstrapMeanInterval(values)) ?? null;
  return { value, n: values.length, ci95 };
}

function within(published: number, measured: MeasuredFigure | null): boolean {
  return measured?.ci95 != null && published >= measured.ci95.low && published <= measured.ci95.high;
}

const points = (difference: number) => `${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(1)} pp`;

/**
 * Computes each published metric variant over a run's finished questions (errata exclusions
 * honoured) and sets it beside the published figures and the run's official metric. `gold` maps a
 * question id to its evidence sessions (the record's `answer_session_ids`).
 */
export function measureClaim(
  claim: Claim,
  run: { run_id: string; samples: readonly Sample[]; summary?: Summary; dataset_sha256?: string | null },
  gold: ReadonlyMap<string, readonly string[]>,
): ClaimMeasurement {
  const samples = run.samples.filter(inMeans);
  const questions = new Map<Sample, VariantQuestion>(
    samples.map((sample) => [
      sample,
      {
        rankedSessions: [...sample.hits].sort((a, b) => a.rank - b.rank).map((hit) => hit.session_id),
        gold: new Set(gold.get(sample.question_id) ?? []),
        judged: sample.judge ? judgeScore(sample.judge) : null,
        metrics: sample.metrics,
        abstention: sample.abstention,
      },
    ]),
  );
  const figures = claim.published.map((published): FigureCheck => {
    const { variant, k } = parseVariant(published.metric);
    const valuesOf = (chosen: readonly Sample[]) =>
      chosen.flatMap((sample) => {
        const value = variant.value(questions.get(sample)!, k);
        return value === null ? [] : [value];
      });
    return {
      metric: published.metric,
      published: published.overall,
      measured: measure(valuesOf(samples), variant.binary),
      by_type: Object.entries(published.by_type ?? {}).map(([type, figure]) => ({
        type,
        published: figure,
        measured: measure(
          valuesOf(samples.filter((sample) => sample.question_type === type)),
          variant.binary,
        ),
      })),
    };
  });
  const overall = run.summary?.metrics.overall;
  const official = {
    metric: claim.official,
    value: overall?.metrics[claim.official] ?? null,
    n: overall?.counts[claim.official] ?? null,
  };
  const headline = figures[0]!;
  const reproduced = within(headline.published, headline.measured);
  const offTypes = headline.by_type
    .filter((row) => row.measured !== null && !within(row.published, row.measured))
    .map((row) => `${row.type} ${points(row.measured!.value - row.published)}`);
  const difference = headline.measured ? headline.measured.value - headline.published : null;
  const explanation =
    difference === null
      ? 'nothing measured: no finished question'
      : `${reproduced ? 'published figure inside the 95% interval' : `off by ${points(difference)}`}` +
        (offTypes.length > 0 ? `; outside on ${offTypes.join(', ')}` : '');
  return {
    claim: claim.id,
    run_id: run.run_id,
    figures,
    official,
    dataset: { claimed: claim.benchmark.dataset.sha256, measured: run.dataset_sha256 ?? null },
    questions: { measured: headline.measured?.n ?? 0, published: claim.questions.count },
    verdict: reproduced ? 'reproduced' : 'not reproduced',
    explanation,
  };
}

/**
 * The verdict as a list shows it: a check on another number of questions than the claim counts
 * says so (`reproduced on 6 of 500 questions`), so a subset never reads as the whole claim checked.
 */
export function verdictLabel(measurement: Pick<ClaimMeasurement, 'verdict' | 'questions'>): string {
  const { measured, published } = measurement.questions;
  return measured === published
    ? measurement.verdict
    : `${measurement.verdict} on ${measured} of ${published} questions`;
}

/**
 * The LoCoMo block of a run's summary.json (`locomo`), as types, added to `Summary` through
 * `BenchmarkSummaryBlocks` so shared code never names it.
 */
import type {} from '../../results/summary.js';
import type { PythonNumber } from '../python-number.js';

declare module '../../results/summary.js' {
  interface BenchmarkSummaryBlocks {
    /** LoCoMo runs: the official aggregation and per-category figures (aggregate-locomo.ts). */
    locomo: LocomoSummary;
  }
}

/** A number as Python holds it: `70.0` (float) and `70` (int) print differently. */
export type { PythonNumber };

export type LocomoCategoryFigures = {
  count: number;
  /** Sum of the per-QA scores rounded to 3 places, as printed (`70.0` float, `0` int). */
  cumAccuracy: PythonNumber;
  /** `round(cumAccuracy / count, 3)`. */
  accuracy: number;
  /** As printed: `round(sum of rounded recall over QA WITH evidence / count of ALL QA, 3)`. */
  recall: number;
  /** The same unrounded (the stats JSON's `recall_by_category`); undefined when no QA has evidence. */
  recallUnrounded?: number;
};

/** What `analyze_aggr_acc(..., rag=True)` prints and stores, reproduced. */
export type LocomoOfficialAggregate = {
  byCategory: Record<number, LocomoCategoryFigures>;
  /** `round(total / count, 3)`, micro-averaged over the printed categories 4, 1, 2, 3, 5. */
  overallAccuracy: number;
  /** Printed unrounded: the recall sums (QA with evidence only) over all QA. */
  overallRecallAccuracy: number;
  /** The printed lines, byte for byte. */
  printedLines: string[];
};

/** Means of a group of questions; `counts` is the n of each (summaries before it lack it). */
type Means = { n: number; metrics: Record<string, number>; counts?: Record<string, number> };

/** The `locomo` block of a LoCoMo run's summary.json. */
export type LocomoSummary = {
  /**
   * Means of the `locomo.*` retrieval metrics per category (`4 single-hop`, …, in the official
   * order) and overall, over every finished question, adversarial included (the official overall).
   * `*_as_printed@k` means are the official printed figures, the others the per-question means.
   */
  retrieval: { by_category: Record<string, Means>; overall: Means };
  /**
   * The official QA aggregation (`evaluate_qa.py` + `evaluation_stats.py analyze_aggr_acc`) of
   * `qa.locomo_f1`, produced by the official token F1, no judge. Its recall figures are those of
   * `recall_metric` (the reader's context under `--context-budget`); without one they are left out.
   */
  official_f1?: Partial<LocomoOfficialAggregate> & { produced_by: string; recall_metric: string | null };
  /** The LLM judge's `qa.accuracy_strict` on categories 1-4 (adversarial excluded), and who judged. */
  judge_accuracy?: {
    judge: string;
    judge_model: string;
    by_category: Record<string, Means>;
    overall: Means;
  };
};

import { errataLabel } from '../errata/apply-errata.js';
import { type ErratumKind, excludes, wrongAnswerLabel } from '../errata/errata-schema.js';
import type { LoadedErrata } from '../errata/load-errata.js';
import { locomoCategory } from '../metrics/locomo/locomo-record.js';
import type { Sample } from './sample.js';

/** The best score reachable when the published label of `wrong` of `n` questions is known to be wrong. */
export type Ceiling = { value: number; wrong_labels: number; n: number };

/** The `errata` block of summary.json: which errata, applied or only known, and what they touch in this run. */
export type ErrataSummary = {
  /** `name@version`. */
  errata: string;
  /** true: the run's figures are corrected (`--errata`); false: official figures, errata only known. */
  applied: boolean;
  /** SHA-256 of the errata file's bytes. */
  file_sha256: string;
  /** Entries in the file. */
  entries: number;
  /** Questions of this run that an entry names. */
  questions_touched: number;
  /** Of those, the ones left out of every mean (when applied) or that would be. */
  excluded: number;
  /** Questions of this run per kind of entry. */
  by_kind: Partial<Record<ErratumKind, number>>;
  /**
   * Under the published labels (only when not applied): the best `qa.accuracy` reachable over the
   * run's finished questions, and for LoCoMo the best judge accuracy over categories 1-4, when
   * some published answers are known to be wrong. A perfect reader is scored wrong on those.
   */
  ceiling?: { qa_accuracy: Ceiling; locomo_judge_accuracy?: Ceiling };
};

/**
 * What `errata` say about this run's questions. Applied errata are read from the samples' marks
 * (what the run did); known ones from the file's entries.
 */
export function summarizeErrata(
  errata: LoadedErrata,
  applied: boolean,
  samples: readonly Sample[],
): ErrataSummary {
  const byQuestion = new Map<string, LoadedErrata['entries']>();
  for (const entry of errata.entries) {
    byQuestion.set(entry.question_id, [...(byQuestion.get(entry.question_id) ?? []), entry]);
  }
  const touched = samples.filter((sample) =>
    applied ? sample.errata !== undefined : byQuestion.has(sample.question_id),
  );
  const kindsOf = (sample: Sample): ErratumKind[] =>
    applied
      ? (sample.errata?.kinds ?? [])
      : [...new Set((byQuestion.get(sample.question_id) ?? []).map((entry) => entry.kind))];
  const byKind: Partial<Record<ErratumKind, number>> = {};
  for (const sample of touched) for (const kind of kindsOf(sample)) byKind[kind] = (byKind[kind] ?? 0) + 1;
  const summary: ErrataSummary = {
    errata: errataLabel(errata),
    applied,
    file_sha256: errata.file_sha256,
    entries: errata.entries.length,
    questions_touched: touched.length,
    excluded: touched.filter((sample) =>
      applied ? sample.errata?.excluded === true : (byQuestion.get(sample.question_id) ?? []).some(excludes),
    ).length,
    by_kind: byKind,
  };
  if (applied) return summary;
  const finished = samples.filter((sample) => sample.error === null);
  const wrong = (group: readonly Sample[]) =>
    group.filter((sample) => (byQuestion.get(sample.question_id) ?? []).some(wrongAnswerLabel)).length;
  const ceiling = (group: readonly Sample[]): Ceiling => ({
    value: group.length === 0 ? 1 : (group.length - wrong(group)) / group.length,
    wrong_labels: wrong(group),
    n: group.length,
  });
  const answerable = finished.filter((sample) => {
    const category = locomoCategory(sample);
    return category !== undefined && category !== 5;
  });
  summary.ceiling = {
    qa_accuracy: ceiling(finished),
    ...(answerable.length > 0 ? { locomo_judge_accuracy: ceiling(answerable) } : {}),
  };
  return summary;
}

/** One line for tables: which errata, applied or not, and how many questions they touch. */
export function renderErrataLine(summary: ErrataSummary): string {
  const kinds = Object.entries(summary.by_kind)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const touched = `${summary.questions_touched} question${summary.questions_touched === 1 ? '' : 's'} touched${kinds ? ` (${kinds})` : ''}`;
  if (summary.applied) {
    return `Errata ${summary.errata} applied (--errata): ${touched}; ${summary.excluded} excluded from every mean, the others corrected.`;
  }
  const ceiling = summary.ceiling?.qa_accuracy;
  const judge = summary.ceiling?.locomo_judge_accuracy;
  const parts = [
    `Errata ${summary.errata} known for this dataset, not applied (official labels): ${touched} here`,
    ...(ceiling && ceiling.wrong_labels > 0
      ? [
          `QA accuracy ceiling under the published answers ${percent(ceiling.value)} (${ceiling.wrong_labels} of ${ceiling.n} labels known wrong)`,
        ]
      : []),
    ...(judge && judge.wrong_labels > 0
      ? [
          `LoCoMo judge accuracy (categories 1-4) ceiling ${percent(judge.value)} (${judge.wrong_labels} of ${judge.n})`,
        ]
      : []),
  ];
  return `${parts.join('; ')}. Corrected figures: --errata ${summary.errata.split('@')[0]}.`;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

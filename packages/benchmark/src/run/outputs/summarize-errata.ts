import { benchmarks } from '../../benchmarks/benchmark-registry.js';
import { errataLabel } from '../../errata/apply-errata.js';
import { type ErratumKind, excludes, wrongAnswerLabel } from '../../errata/errata-schema.js';
import type { LoadedErrata } from '../../errata/load-errata.js';
import type { Ceiling, ErrataSummary } from '../../results/errata-summary.js';
import type { Sample } from '../../results/sample.js';

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
      ? ((sample.errata?.kinds ?? []) as ErratumKind[])
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
  summary.ceiling = { qa_accuracy: ceiling(finished) };
  for (const [key, own] of benchmarkCeilings()) {
    const counted = finished.filter((sample) => own.counts(sample));
    if (counted.length > 0) summary.ceiling[key] = ceiling(counted);
  }
  return summary;
}

/** Every benchmark's own errata ceilings, by summary.json key, in registry order. */
function benchmarkCeilings() {
  return Object.values(benchmarks()).flatMap((benchmark) => Object.entries(benchmark.errataCeilings ?? {}));
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
  const parts = [
    `Errata ${summary.errata} known for this dataset, not applied (official labels): ${touched} here`,
    ...(ceiling && ceiling.wrong_labels > 0
      ? [
          `QA accuracy ceiling under the published answers ${percent(ceiling.value)} (${ceiling.wrong_labels} of ${ceiling.n} labels known wrong)`,
        ]
      : []),
    ...benchmarkCeilings().flatMap(([key, own]) => {
      const judge = summary.ceiling?.[key];
      return judge && judge.wrong_labels > 0
        ? [`${own.label} ceiling ${percent(judge.value)} (${judge.wrong_labels} of ${judge.n})`]
        : [];
    }),
  ];
  return `${parts.join('; ')}. Corrected figures: --errata ${summary.errata.split('@')[0]}.`;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

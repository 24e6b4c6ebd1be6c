/**
 * The retrieval metrics published memory systems report, each named and defined as its author's
 * script computes it, over the ranked hits a results folder stores (samples.jsonl) and the
 * question's evidence sessions (the record's `answer_session_ids`). A claim names one of these;
 * none is computed by hand in a claim file.
 */

/** What a variant reads of one question: its ranked hits' sessions and its evidence sessions. */
export type VariantQuestion = {
  /** The session of each hit, in rank order (a turn ranking repeats a session). */
  readonly rankedSessions: readonly string[];
  /** The question's evidence sessions (`answer_session_ids`); may be empty. */
  readonly gold: ReadonlySet<string>;
  /** The judge's score of the answer in [0, 1]; null when it was not judged. */
  readonly judged: number | null;
  /** The question's official figures as the run graded them (samples.jsonl `metrics`). */
  readonly metrics: Readonly<Record<string, number>>;
  readonly abstention: boolean;
};

/** One variant: a value per question in [0, 1], or null when the author's script skips it. */
export type MetricVariant = {
  readonly name: string;
  readonly description: string;
  /** Each question counts 0 or 1 (a Wilson interval), or a fraction (a bootstrap interval). */
  readonly binary: boolean;
  /** Whether it is read at a cutoff (`name@k`); one that is not is written by its name alone. */
  readonly atK: boolean;
  value(question: VariantQuestion, k: number): number | null;
};

function topSessions(rankedSessions: readonly string[], k: number): Set<string> {
  return new Set(rankedSessions.slice(0, k));
}

function anyGold(sessions: ReadonlySet<string>, gold: ReadonlySet<string>): number {
  for (const session of gold) if (sessions.has(session)) return 1;
  return 0;
}

/** The first k distinct sessions of a ranking, in order. */
function distinctSessions(rankedSessions: readonly string[], k: number): Set<string> {
  const seen = new Set<string>();
  for (const session of rankedSessions) {
    if (seen.size >= k) break;
    seen.add(session);
  }
  return seen;
}

/** Discounted gain of relevances in order: rel / log2(position + 1), position from 1. */
function discountedGain(relevances: readonly number[]): number {
  return relevances.reduce((total, relevance, index) => total + relevance / Math.log2(index + 2), 0);
}

const VARIANT_LIST: readonly MetricVariant[] = [
  // Source: MemPalace/mempalace@9b7cfc99 benchmarks/longmemeval_bench.py:71-80 (evaluate_retrieval) and :3079-3166 (every entry, gold = answer_session_ids)
  {
    name: 'recall_any_all_questions',
    description:
      'some evidence session among the sessions of the top k hits, over every question, abstention included (no evidence counts 0)',
    binary: true,
    atK: true,
    value: ({ rankedSessions, gold }, k) => anyGold(topSessions(rankedSessions, k), gold),
  },
  // Source: eleboucher/memini bench/dataset.go (LoadLoCoMo skips a QA without evidence ids; gold = answer_session_ids on LongMemEval)
  {
    name: 'recall_any_with_evidence',
    description:
      'some evidence session among the sessions of the top k hits; questions without evidence are skipped',
    binary: true,
    atK: true,
    value: ({ rankedSessions, gold }, k) =>
      gold.size === 0 ? null : anyGold(topSessions(rankedSessions, k), gold),
  },
  // Source: xiaowu0162/LongMemEval issue #48 (AutoMem: "top 5 unique sessions")
  {
    name: 'recall_any_unique_sessions',
    description: 'some evidence session among the first k distinct sessions of the ranking',
    binary: true,
    atK: true,
    value: ({ rankedSessions, gold }, k) => anyGold(distinctSessions(rankedSessions, k), gold),
  },
  // Source: MemPalace/mempalace@9b7cfc99 benchmarks/locomo_bench.py:990-995 (compute_retrieval_recall)
  {
    name: 'recall_fraction',
    description:
      'the share of evidence sessions among the sessions of the top k hits; a question without evidence counts 1',
    binary: false,
    atK: true,
    value: ({ rankedSessions, gold }, k) => {
      if (gold.size === 0) return 1;
      const top = topSessions(rankedSessions, k);
      let found = 0;
      for (const session of gold) if (top.has(session)) found++;
      return found / gold.size;
    },
  },
  // Source: MemPalace/mempalace@9b7cfc99 benchmarks/longmemeval_bench.py:53-68 (dcg, ndcg)
  {
    name: 'ndcg_retrieved_ideal',
    description:
      'binary NDCG@k with gain rel / log2(position + 1) and the ideal taken from the relevances of the top k retrieved themselves, not of the corpus',
    binary: false,
    atK: true,
    value: ({ rankedSessions, gold }, k) => {
      const relevances = rankedSessions.slice(0, k).map((session) => (gold.has(session) ? 1 : 0));
      const ideal = discountedGain([...relevances].sort((a, b) => b - a));
      return ideal === 0 ? 0 : discountedGain(relevances) / ideal;
    },
  },
  // Source: xiaowu0162/LongMemEval src/retrieval/eval_utils.py (evaluate_retrieval), as lme grades it (docs/fidelity.md)
  {
    name: 'official_recall_all',
    description:
      "the run's own official session recall_all@k (every gold session in the top k, the official gold), abstention questions skipped",
    binary: true,
    atK: true,
    value: ({ metrics, abstention }, k) => (abstention ? null : (metrics[`session.recall_all@${k}`] ?? null)),
  },
  // Source: xiaowu0162/LongMemEval src/evaluation/evaluate_qa.py (the official judge, yes/no per question)
  {
    name: 'judged_accuracy',
    description:
      "the judge's score of each answer (yes 1, no 0), over every question; an unjudged question counts 0",
    binary: true,
    atK: false,
    value: ({ judged }) => judged ?? 0,
  },
];

/** The variants by name. */
export const METRIC_VARIANTS: Readonly<Record<string, MetricVariant>> = Object.fromEntries(
  VARIANT_LIST.map((variant) => [variant.name, variant]),
);

/** A variant with its cutoff, written `name@k` in a claim. */
export type VariantAtK = { variant: MetricVariant; k: number; label: string };

/**
 * Parses `name@k` (or `name` for a variant read at no cutoff); an unknown name or a missing, extra
 * or zero cutoff throws one sentence listing the known variants.
 */
export function parseVariant(label: string): VariantAtK {
  const match = /^([a-z_]+)(?:@(\d+))?$/.exec(label);
  const variant = match ? METRIC_VARIANTS[match[1]!] : undefined;
  const k = match?.[2] === undefined ? 0 : Number(match[2]);
  if (!variant || variant.atK !== k > 0)
    throw new Error(
      `unknown metric variant "${label}" (known: ${Object.values(METRIC_VARIANTS)
        .map((known) => (known.atK ? `${known.name}@k` : known.name))
        .join(', ')})`,
    );
  return { variant, k, label };
}

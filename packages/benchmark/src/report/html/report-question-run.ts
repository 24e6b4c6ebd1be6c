import { missCause } from '../../providers/pipeline/gold-trace.js';
import { judgeScore, type Sample, type SampleJudgeItem } from '../../results/sample.js';
import { sampleErrataCell } from '../../run/outputs/write-csv.js';
import type { QuestionDetails } from './question-details.js';

/** Hits kept per question and run for the question page. */
const TOP_HITS = 10;

export type GoldRank = {
  id: string;
  rank: number | null;
  /** Per-route score and rank, when the run had them (explain.jsonl, or a saved hit). */
  routes?: Record<string, { score: number; rank: number }>;
  cause?: string;
  cause_kind?: string;
};

export type HitRow = {
  rank: number;
  id: string;
  session_id: string;
  date?: string;
  score: number;
  routes: Record<string, { score: number; rank: number }>;
  gold?: boolean;
};

export type QuestionRun = {
  metrics: Record<string, number>;
  gold: GoldRank[];
  hits: HitRow[];
  /** How far `gold` ranks reach: the whole ranking (explain.jsonl) or the saved hits. */
  ranked: 'all' | number;
  hypothesis?: string | null;
  /** A yes/no judge's verdict (null: a judge error). */
  judge?: boolean | null;
  /** A graded judge's score in [0, 1] (null: a judge error) and its rubric items. */
  judge_score?: number | null;
  judge_items?: SampleJudgeItem[];
  error?: string | null;
  /** Set when the run's errata touched the question: `excluded: gold-answer (longmemeval-s@1)`. */
  errata?: string;
};

/** A figure rounded to four decimals for the page. */
export const round = (value: number) => Math.round(value * 10000) / 10000;

function goldRanksFromHits(sample: Sample): GoldRank[] {
  return sample.gold_sessions.map((gold) => {
    const hit = sample.hits.find((candidate) => candidate.session_id === gold || candidate.id === gold);
    if (!hit) return { id: gold, rank: null };
    const cause = missCause({ rank: hit.rank, routes: hit.routes }, 5);
    return { id: gold, rank: hit.rank, routes: hit.routes, cause: cause.text, cause_kind: cause.kind };
  });
}

function goldRanksFromExplain(explain: Record<string, unknown>): GoldRank[] | undefined {
  const gold = explain.gold as { sessions?: unknown } | undefined;
  if (!gold || !Array.isArray(gold.sessions)) return undefined;
  return (gold.sessions as Record<string, unknown>[]).map((item) => ({
    id: String(item.id),
    rank: typeof item.rank === 'number' ? item.rank : null,
    routes: item.routes as GoldRank['routes'],
    cause: (item.cause as { text?: string } | undefined)?.text,
    cause_kind: (item.cause as { kind?: string } | undefined)?.kind,
  }));
}

/** One run's view of a question for the question page: its metrics, gold ranks, top hits, answer and judge. */
export function questionRun(
  sample: Sample,
  explain: Record<string, unknown> | undefined,
  details: QuestionDetails | undefined,
  metrics: readonly string[],
): QuestionRun {
  const fromExplain = explain ? goldRanksFromExplain(explain) : undefined;
  const gold = fromExplain ?? goldRanksFromHits(sample);
  const goldIds = new Set(sample.gold_sessions);
  const kept: Record<string, number> = {};
  for (const name of metrics) if (sample.metrics[name] !== undefined) kept[name] = sample.metrics[name];
  return {
    metrics: kept,
    gold,
    ranked: fromExplain ? 'all' : sample.hits.length,
    hits: sample.hits.slice(0, TOP_HITS).map((hit) => ({
      rank: hit.rank,
      id: hit.id,
      session_id: hit.session_id,
      ...(details?.sessionDates[hit.session_id] ? { date: details.sessionDates[hit.session_id] } : {}),
      score: round(hit.score),
      routes: Object.fromEntries(
        Object.entries(hit.routes).map(([route, trace]) => [
          route,
          { score: round(trace.score), rank: trace.rank },
        ]),
      ),
      ...(goldIds.has(hit.session_id) || goldIds.has(hit.id) ? { gold: true } : {}),
    })),
    ...(sample.hypothesis !== null ? { hypothesis: sample.hypothesis } : {}),
    ...judgeOf(sample),
    ...(sample.error ? { error: sample.error } : {}),
    ...(sample.errata ? { errata: `${sampleErrataCell(sample)} (${sample.errata.errata})` } : {}),
  };
}

/** The judge's grading for the question page: a yes/no verdict, or a graded score with its items. */
function judgeOf(sample: Sample): Pick<QuestionRun, 'judge' | 'judge_score' | 'judge_items'> {
  const { judge } = sample;
  if (!judge) return {};
  const score = judgeScore(judge);
  if (judge.items === undefined) return { judge: score === null ? null : score === 1 };
  return { judge_score: score, judge_items: judge.items };
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildCorpus, type Granularity } from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { evaluateQuestion } from '../metrics/question-metrics.js';
import type { Sample } from '../results/sample.js';
import type { Exclusion } from '../results/summary.js';
import { aggregateMetrics } from '../run/outputs/aggregate-metrics.js';

/** One question of a reference run of the official scripts (`<run>.jsonl.gz`). */
export type ReferenceQuestion = {
  question_id: string;
  question_type: string;
  is_abs: boolean;
  no_user_target: boolean;
  ranked_corpus_ids: string[];
  ranked_scores: number[];
  metrics: { session: Record<string, number>; turn: Record<string, number> };
};

type MeansByExclusion = Record<Exclusion, Record<string, number>>;

export type ReferenceRun = {
  name: string;
  means: { session?: MeansByExclusion; turn?: MeansByExclusion };
  perType: Record<string, Record<Exclusion, Record<string, number>>>;
  questions: Map<string, ReferenceQuestion>;
};

/** Reference runs shipped beside the data: `s_session`, `s_turn`, `oracle_session`, `oracle_turn`. */
export function referenceRunName(dataset: 'oracle' | 's', granularity: Granularity): string {
  return `${dataset}_${granularity}`;
}

export function hasReference(dir: string): boolean {
  return existsSync(join(dir, 'reference.json'));
}

export function loadReferenceRun(dir: string, name: string): ReferenceRun {
  const reference = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8'));
  const run = reference.runs[name];
  if (!run) throw new Error(`${join(dir, 'reference.json')} has no run "${name}"`);
  const lines = gunzipSync(readFileSync(join(dir, `${name}.jsonl.gz`)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const questions = new Map<string, ReferenceQuestion>();
  for (const line of lines) {
    const question = JSON.parse(line) as ReferenceQuestion;
    questions.set(question.question_id, question);
  }
  return {
    name,
    means: { session: run.session, turn: run.turn },
    perType: reference.per_type?.[name] ?? {},
    questions,
  };
}

export type ComparisonFinding = { what: string; detail: string };

export type Comparison = {
  run: string;
  /** Largest |ours − official| over every mean (both exclusions, every level and k) and per type. */
  maxMeanDiff: number;
  /** Largest |ours − official| over every per-question metric. */
  maxQuestionDiff: number;
  questionsCompared: number;
  /** Questions whose top-50 differ beyond tie order. */
  rankingMismatches: number;
  findings: ComparisonFinding[];
};

/** The official ids rename `answer` to `noans` in non-gold evidence ids; lme hits keep the haystack id. */
function haystackId(officialId: string): string {
  return officialId.replaceAll('noans', 'answer');
}

/**
 * Compares an lme run with a reference run of the official scripts: every mean (both exclusion
 * conventions, every level and cutoff, per question type), every per-question metric, and the
 * top-50 ranking of every question. Rankings are compared tie-aware: at each rank our score must
 * equal the official score at that rank, and our document must have that score in the official
 * run (so documents of equal score may come in any order). Metrics within `tolerance`.
 */
export function compareWithReference(options: {
  reference: ReferenceRun;
  samples: readonly Sample[];
  granularity: Granularity;
  /** For means. */
  tolerance: number;
  /** For per-question metrics; `null` skips them (turn runs, whose metrics depend on tie order). */
  questionTolerance: number | null;
  scoreTolerance?: number;
}): Comparison {
  const { reference, samples, tolerance, questionTolerance } = options;
  const scoreTolerance = options.scoreTolerance ?? 1e-9;
  const findings: ComparisonFinding[] = [];
  let maxMeanDiff = 0;
  let maxQuestionDiff = 0;
  let rankingMismatches = 0;

  const check = (what: string, ours: number | undefined, official: number, kind: 'mean' | 'question') => {
    const diff = ours === undefined ? Number.POSITIVE_INFINITY : Math.abs(ours - official);
    if (kind === 'mean') maxMeanDiff = Math.max(maxMeanDiff, diff);
    else maxQuestionDiff = Math.max(maxQuestionDiff, diff);
    if (diff > (kind === 'mean' ? tolerance : (questionTolerance ?? Number.POSITIVE_INFINITY)))
      findings.push({ what, detail: `ours ${ours} vs official ${official}` });
  };

  for (const exclusion of ['A', 'B'] as const) {
    const summary = aggregateMetrics({
      runId: reference.name,
      dataset: '',
      convention: 'official',
      exclusion,
      samples,
    });
    for (const level of ['session', 'turn'] as const) {
      const official = reference.means[level]?.[exclusion];
      if (!official) continue;
      for (const [metric, value] of Object.entries(official)) {
        check(
          `mean ${exclusion} ${level}.${metric}`,
          summary.metrics.overall.metrics[`${level}.${metric}`],
          value,
          'mean',
        );
      }
    }
    for (const [type, byExclusion] of Object.entries(reference.perType)) {
      const ours = summary.metrics.by_type[type];
      for (const [metric, value] of Object.entries(byExclusion[exclusion])) {
        if (metric === 'n') check(`n ${exclusion} ${type}`, ours?.n, value, 'mean');
        else
          check(
            `mean ${exclusion} ${type} session.${metric}`,
            ours?.metrics[`session.${metric}`],
            value,
            'mean',
          );
      }
    }
  }

  let questionsCompared = 0;
  for (const sample of samples) {
    const official = reference.questions.get(sample.question_id);
    if (!official) {
      findings.push({ what: `question ${sample.question_id}`, detail: 'not in the reference run' });
      continue;
    }
    questionsCompared++;
    for (const level of questionTolerance === null ? [] : (['session', 'turn'] as const)) {
      for (const [metric, value] of Object.entries(official.metrics[level])) {
        check(
          `question ${sample.question_id} ${level}.${metric}`,
          sample.metrics[`${level}.${metric}`],
          value,
          'question',
        );
      }
    }
    const officialScoreOf = new Map<string, number>();
    for (const [index, id] of official.ranked_corpus_ids.entries()) {
      officialScoreOf.set(haystackId(id), official.ranked_scores[index]!);
    }
    const top = Math.min(50, official.ranked_corpus_ids.length);
    let mismatch: string | undefined;
    if (sample.hits.length < top) mismatch = `only ${sample.hits.length} hits stored, need ${top}`;
    for (let rank = 0; rank < top && !mismatch; rank++) {
      const hit = sample.hits[rank]!;
      const expected = official.ranked_scores[rank]!;
      const scoreOfOurs = officialScoreOf.get(hit.id);
      if (Math.abs(hit.score - expected) > scoreTolerance) {
        mismatch = `rank ${rank + 1}: score ${hit.score} vs official ${expected}`;
      } else if (scoreOfOurs === undefined || Math.abs(scoreOfOurs - hit.score) > scoreTolerance) {
        mismatch = `rank ${rank + 1}: ${hit.id} has official score ${scoreOfOurs}, ours ${hit.score}`;
      }
    }
    if (mismatch) {
      rankingMismatches++;
      findings.push({ what: `ranking ${sample.question_id}`, detail: mismatch });
    }
  }
  if (questionsCompared !== reference.questions.size) {
    findings.push({
      what: 'questions',
      detail: `compared ${questionsCompared} of ${reference.questions.size}`,
    });
  }
  return {
    run: reference.name,
    maxMeanDiff,
    maxQuestionDiff,
    questionsCompared,
    rankingMismatches,
    findings,
  };
}

/**
 * Grades the official ranking of one question with lme's corpus and metric code, and returns the
 * largest difference from the official per-question metrics: this checks the metric
 * implementation independently of tie order.
 */
export function regradeOfficialRanking(
  record: LongMemEvalRecord,
  official: ReferenceQuestion,
  granularity: Granularity,
): { maxDiff: number; worst: string } {
  const corpus = buildCorpus(record, { granularity, indexRoles: 'user' });
  const positions = new Map<string, number[]>();
  for (const [index, id] of corpus.officialIds.entries())
    positions.set(id, [...(positions.get(id) ?? []), index]);
  const ranking = official.ranked_corpus_ids.map((id) => {
    const index = positions.get(id)?.shift();
    if (index === undefined)
      throw new Error(`question ${record.question_id}: official id ${id} not in lme's corpus`);
    return index;
  });
  const { metrics } = evaluateQuestion({ record, corpus, ranking, granularity, convention: 'official' });
  let maxDiff = 0;
  let worst = '';
  for (const level of ['session', 'turn'] as const) {
    for (const [metric, value] of Object.entries(official.metrics[level])) {
      const ours = metrics[`${level}.${metric}`];
      const diff = ours === undefined ? Number.POSITIVE_INFINITY : Math.abs(ours - value);
      if (diff > maxDiff) {
        maxDiff = diff;
        worst = `${level}.${metric}: ours ${ours} vs official ${value}`;
      }
    }
  }
  return { maxDiff, worst };
}

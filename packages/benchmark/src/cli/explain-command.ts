import { Command } from 'commander';
import { readExplainLines } from '../analysis/read-explain-lines.js';
import { type Run, readRun } from '../analysis/read-run.js';
import { suggestNames } from '../config/close-names.js';
import { type MissCause, missCause } from '../providers/pipeline/gold-trace.js';
import { type QuestionDetails, readQuestionDetails } from '../report/html/question-details.js';
import { judgeScore, type Sample } from '../results/sample.js';
import { log } from './logger.js';

type Routes = Record<string, { score: number; rank: number }>;
type GoldLine = { id: string; session_id?: string; rank: number | null; routes: Routes; cause: MissCause };

export type ExplainQuestionOptions = {
  run: Run;
  sample: Sample;
  /** The question's explain.jsonl line, when the run wrote one. */
  explain?: Record<string, unknown>;
  details?: QuestionDetails;
  /** Why `details` is missing. */
  detailsUnavailable?: string;
  /** Cutoff a miss is judged at. */
  k: number;
  /** Hits listed. */
  hits: number;
};

const number = (value: number | null | undefined) =>
  typeof value === 'number' ? String(Math.round(value * 10000) / 10000) : '–';

function routesText(routes: Routes | undefined): string {
  return Object.entries(routes ?? {})
    .map(
      ([route, trace]) =>
        `${route} ${number(trace.score)} (${trace.rank > 0 ? `#${trace.rank}` : 'unranked'})`,
    )
    .join(', ');
}

function goldFromExplain(
  explain: Record<string, unknown>,
  level: 'sessions' | 'turns',
  k: number,
): GoldLine[] | undefined {
  const gold = explain.gold as Record<string, unknown> | undefined;
  const items = gold?.[level];
  if (!Array.isArray(items)) return undefined;
  return (items as Record<string, unknown>[]).map((item) => {
    const rank = typeof item.rank === 'number' ? item.rank : null;
    const routes = (item.routes ?? {}) as Routes;
    const baseRank = typeof item.base_rank === 'number' ? item.base_rank : null;
    return {
      id: String(item.id),
      session_id: String(item.session_id ?? item.id),
      rank,
      routes,
      // Judged again at this k (the stored cause is at the k of the run, 5).
      cause: missCause({ rank, base_rank: baseRank, routes }, k),
    };
  });
}

function goldFromSample(sample: Sample, k: number): GoldLine[] {
  return sample.gold_sessions.map((gold) => {
    const hit = sample.hits.find((candidate) => candidate.session_id === gold || candidate.id === gold);
    if (!hit) {
      return {
        id: gold,
        rank: null,
        routes: {},
        cause: {
          kind: 'not_retrieved',
          text: `not in the ${sample.hits.length} saved hits (run with --explain for its rank and route scores)`,
        },
      };
    }
    return {
      id: gold,
      rank: hit.rank,
      routes: hit.routes,
      cause: missCause({ rank: hit.rank, routes: hit.routes }, k),
    };
  });
}

function goldLines(lines: GoldLine[]): string[] {
  const width = Math.max(4, ...lines.map((line) => line.id.length));
  return lines.map(
    (line) =>
      `  ${line.cause.kind === 'hit' ? '✓' : '✗'} ${line.id.padEnd(width)}  ${line.rank === null ? 'not retrieved' : `rank ${line.rank}`}` +
      `${Object.keys(line.routes).length > 0 ? `  [${routesText(line.routes)}]` : ''}\n      ${line.cause.text}`,
  );
}

/** What `lme explain` prints for one question of a run. */
export function explainQuestion(options: ExplainQuestionOptions): string {
  const { run, sample, explain, details, k } = options;
  const out: string[] = [];
  out.push(
    `question ${sample.question_id} (${sample.question_type}${sample.abstention ? ', abstention' : ''}) · run ${run.config.run_id} · ${run.config.config.convention} convention`,
  );
  const question =
    details?.question ?? (typeof explain?.question === 'string' ? explain.question : undefined);
  if (question !== undefined) {
    out.push(`  question: ${question}`);
    out.push(`  date:     ${details?.date ?? explain?.question_date ?? '–'}`);
    out.push(`  answer:   ${details?.answer ?? explain?.answer ?? '–'}`);
  } else {
    out.push(
      `  question text not available: ${options.detailsUnavailable ?? 'the dataset file was not read'}`,
    );
  }
  if (sample.error) out.push(`  error: ${sample.error}`);
  const metrics = ['session', 'turn']
    .flatMap((level) => ['recall_all', 'recall_any', 'ndcg_any'].map((name) => `${level}.${name}@${k}`))
    .filter((name) => sample.metrics[name] !== undefined);
  out.push(
    `  ${metrics.map((name) => `${name} ${number(sample.metrics[name])}`).join(' · ') || 'no retrieval metrics'}`,
  );

  const sessions = explain ? goldFromExplain(explain, 'sessions', k) : undefined;
  const source = sessions
    ? 'explain.jsonl (every document ranked)'
    : `samples.jsonl (its ${sample.hits.length} saved hits; run with --explain for the full ranking, base ranks and stages)`;
  out.push('', `gold sessions (cause at k=${k}; from ${source}):`);
  const gold = sessions ?? goldFromSample(sample, k);
  out.push(...(gold.length > 0 ? goldLines(gold) : ['  none under this convention (no_target)']));
  const turns = explain ? goldFromExplain(explain, 'turns', k) : undefined;
  if (turns && turns.length > 0) out.push('', `gold turns (cause at k=${k}):`, ...goldLines(turns));

  const goldIds = new Set([...gold.map((line) => line.session_id ?? line.id), ...sample.gold_sessions]);
  out.push('', `top ${Math.min(options.hits, sample.hits.length)} hits (★ gold):`);
  for (const hit of sample.hits.slice(0, options.hits)) {
    const date = details?.sessionDates[hit.session_id];
    const mark = goldIds.has(hit.session_id) || goldIds.has(hit.id) ? '★' : ' ';
    out.push(
      `  ${mark} ${String(hit.rank).padStart(3)}  ${hit.id}${hit.id !== hit.session_id ? ` (${hit.session_id})` : ''}${date ? `  ${date}` : ''}  score ${number(hit.score)}  [${routesText(hit.routes)}]`,
    );
  }
  if (details) {
    out.push('', 'evidence turns (has_answer):');
    if (details.evidence.length === 0) out.push('  none marked');
    for (const turn of details.evidence) {
      const text = turn.text.length > 400 ? `${turn.text.slice(0, 400)} …` : turn.text;
      out.push(`  [${turn.session_id} · ${turn.date} · ${turn.role}] ${text.replace(/\s+/g, ' ')}`);
    }
  }
  if (sample.hypothesis !== null) {
    out.push('', `hypothesis (${judgeVerdict(sample.judge)}): ${sample.hypothesis}`);
    for (const item of sample.judge?.items ?? []) {
      const score = item.score === null ? 'unreadable' : `${item.score}/${item.max ?? 1}`;
      out.push(`  rubric item ${score}: ${item.name}${item.reason ? ` (${item.reason})` : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** How the judge graded: correct/wrong for a yes/no judge, the score for a graded one. */
function judgeVerdict(judge: Sample['judge']): string {
  if (!judge) return 'not judged';
  if (judge.items === undefined) {
    const score = judgeScore(judge);
    return score === null ? 'no label' : score === 1 ? 'correct' : 'wrong';
  }
  const score = judgeScore(judge);
  return score === null ? 'judge error' : `score ${Math.round(score * 1000) / 1000}`;
}

function positiveInteger(flag: string) {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1)
      throw new Error(`${flag} must be a positive integer (got "${value}").`);
    return parsed;
  };
}

export function explainCommand(): Command {
  return new Command('explain')
    .description(
      'explain one question of a run: its gold sessions and turns with the rank each got (or not retrieved), their per-route scores and the cause of a miss (lexical, dense, fusion or stage), and the top hits',
    )
    .argument('<run-dir>', 'results folder')
    .argument('<question-id>', 'question id')
    .option('--k <n>', 'cutoff a miss is judged at', positiveInteger('--k'), 5)
    .option('--hits <n>', 'hits to list', positiveInteger('--hits'), 10)
    .action(async (dir: string, questionId: string, options: { k: number; hits: number }) => {
      const run = readRun(dir);
      for (const warning of run.warnings) log.warn(warning);
      const sample = run.samples.find((candidate) => candidate.question_id === questionId);
      if (!sample) {
        throw new Error(
          `Run ${run.dir} has no question ${questionId} (${suggestNames(
            questionId,
            run.samples.map((candidate) => candidate.question_id),
          )}).`,
        );
      }
      const explain = readExplainLines(run.dir)?.get(questionId);
      const sessions = new Set([
        ...sample.hits.slice(0, options.hits).map((hit) => hit.session_id),
        ...sample.gold_sessions,
      ]);
      const read = await readQuestionDetails(run.config.dataset?.path ?? '', {
        questionIds: new Set([questionId]),
        sessionsOf: () => sessions,
      });
      process.stdout.write(
        explainQuestion({
          run,
          sample,
          ...(explain ? { explain } : {}),
          ...('details' in read
            ? { details: read.details.get(questionId) }
            : { detailsUnavailable: read.unavailable }),
          k: options.k,
          hits: options.hits,
        }),
      );
    });
}

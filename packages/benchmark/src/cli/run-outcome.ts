import { formatSpend } from '../run/checks/spend.js';
import { formatAnswerLatency } from '../run/outputs/provider-answer-stats.js';
import type { BenchmarkResult } from '../run/run-benchmark.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/**
 * What `lme run` prints on stderr after a run that wrote its outputs, and its exit code: failed
 * questions make exit code 2 with one line naming the first failure and the rerun command.
 */
export function describeRunOutcome(result: BenchmarkResult): { lines: string[]; exitCode: ExitCode } {
  const { summary, dir } = result;
  const lines: string[] = [];
  const spend = formatSpend(result.spend);
  if (spend) lines.push(spend);
  const latency = result.providerAnswers ? formatAnswerLatency(result.providerAnswers) : undefined;
  if (latency) lines.push(latency);
  if (result.providerAnswers?.unanswered && summary.qa?.answer_source === 'provider') {
    lines.push(
      `the provider answered ${result.providerAnswers.unanswered} questions with nothing (counted as failed, not wrong).`,
    );
  }
  if (result.stopReason !== undefined) {
    lines.push(
      `stopped: ${result.stopReason}; the table covers the finished questions. Continue with: lme run --resume ${dir}${result.stopReason.includes('--max-cost') ? ' --max-cost <more>' : ''}`,
    );
  }
  // A run that stopped early is not a success either: its means cover only what it finished.
  if (summary.errors === 0)
    return { lines, exitCode: result.stopReason === undefined ? EXIT.ok : EXIT.failedQuestions };
  const first = summary.first_error;
  lines.push(
    `${summary.errors} of ${summary.n} questions failed` +
      (first ? `; first: ${first.question_id}: ${first.message}` : '') +
      `; rerun with --resume ${dir} --retry-errors`,
  );
  return { lines, exitCode: EXIT.failedQuestions };
}

import { QUESTION_TYPES } from '../benchmarks/longmemeval-record.js';
import { formatDelta, formatValue, renderMarkdownTable } from '../results/markdown-table.js';
import { ABSTENTION_QA_LABEL, ABSTENTION_RETRIEVAL_LABEL } from '../run/outputs/render-table.js';
import type {
  CategoryComparison,
  ComparisonResult,
  FlippedQuestion,
  MetricTest,
  RunComparison,
} from './compare-runs.js';
import { formatConfigValue } from './config-differences.js';
import { describeHiddenDifferences } from './render-comparison-table.js';
import { describeErrata } from './run-label.js';

const SIGNIFICANT = 0.05;

export function formatPValue(pValue: number): string {
  const shown = pValue < 0.0001 ? '<0.0001' : formatValue(pValue);
  return pValue < SIGNIFICANT ? `${shown} *` : shown;
}

function describeTest(test: MetricTest | null): string {
  if (test === null) return 'no pairs';
  if (test.kind === 'mcnemar') return `McNemar b=${test.b} c=${test.c}`;
  return `bootstrap CI [${formatDelta(test.ci95[0])}, ${formatDelta(test.ci95[1])}]`;
}

function categoryTitle(category: CategoryComparison, kind: 'retrieval' | 'qa'): string {
  const label =
    category.category !== 'abstention'
      ? category.category
      : kind === 'qa'
        ? ABSTENTION_QA_LABEL
        : ABSTENTION_RETRIEVAL_LABEL;
  return `### ${label}`;
}

/** Questions in each mean and in the test: `18` when all agree, else `18 base, 22 other, 18 paired`. */
export function describeCounts(nBase: number, nOther: number, nPaired: number): string {
  return nBase === nOther && nOther === nPaired
    ? String(nPaired)
    : `${nBase} base, ${nOther} other, ${nPaired} paired`;
}

function groupByType(questions: readonly FlippedQuestion[]): string {
  const groups = new Map<string, string[]>();
  for (const { question_id, question_type } of questions) {
    groups.set(question_type, [...(groups.get(question_type) ?? []), question_id]);
  }
  const order = (type: string) => {
    const index = (QUESTION_TYPES as readonly string[]).indexOf(type);
    return index === -1 ? QUESTION_TYPES.length : index;
  };
  return [...groups]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([type, ids]) => `${type}: ${ids.join(', ')}`)
    .join('; ');
}

function renderOne(comparison: RunComparison, result: ComparisonResult): string {
  const { base, other } = comparison;
  const sameIds = base.runId === other.runId;
  const baseHeader = sameIds ? 'base' : base.runId;
  const otherHeader = sameIds ? 'other' : other.runId;
  const lines = [`## ${base.runId} (base) vs ${other.runId}`, ''];
  const failed = (errors: number) =>
    errors === 0 ? '' : ` (${errors} failed ${errors === 1 ? 'question' : 'questions'}, in no mean)`;
  lines.push(`- base: ${base.dir}${failed(base.errors)}`, `- other: ${other.dir}${failed(other.errors)}`);
  lines.push(
    base.errata?.name === other.errata?.name
      ? `- errata: ${describeErrata(base)}${base.errata ? ` in base, ${describeErrata(other)} in other` : ', both'}`
      : `- errata: base ${describeErrata(base)}, other ${describeErrata(other)}; questions either excluded are in the other's means only`,
  );
  const differences = comparison.configDifferences
    .map(({ key, values }) => `${key} ${values.map(formatConfigValue).join(' → ')}`)
    .join(', ');
  lines.push(`- config differences: ${differences === '' ? 'none' : differences}`);
  const binary = comparison.binaryMetrics;
  const continuous = comparison.metrics.filter((metric) => !binary.includes(metric));
  const tests = [
    binary.length > 0 ? `exact McNemar for ${binary.join(', ')}` : '',
    continuous.length > 0
      ? `paired bootstrap of the mean difference (${result.resamples} resamples, seed ${result.seed}) for ${continuous.join(', ')}`
      : '',
  ].filter((text) => text !== '');
  lines.push(
    `- tests on the questions both runs count: ${tests.join('; ')}; b = questions only ${baseHeader} gets, c = only ${otherHeader}; * p < ${SIGNIFICANT}`,
  );
  const hidden = describeHiddenDifferences(comparison, other.runId);
  if (hidden !== null) lines.push(`- ${hidden}`);
  for (const warning of comparison.warnings) lines.push('', `> warning: ${warning}`);

  for (const category of comparison.categories) {
    // Abstention questions are out of overall for retrieval metrics, in it for QA metrics: the
    // abstention category gets one table per kind, each titled for what it counts.
    const isQa = (name: string) => name.startsWith('qa.');
    const parts =
      category.category === 'abstention'
        ? (['retrieval', 'qa'] as const).map(
            (kind) =>
              [kind, category.metrics.filter((metric) => isQa(metric.metric) === (kind === 'qa'))] as const,
          )
        : ([['retrieval', category.metrics]] as const);
    for (const [kind, metrics] of parts) {
      if (metrics.length === 0 && category.category === 'abstention') continue;
      lines.push('', categoryTitle(category, kind), '', renderMetricsTable(metrics, baseHeader, otherHeader));
    }
  }

  if (comparison.flips.length > 0) {
    lines.push('', '### Flipped questions (overall)', '');
    for (const { metric, gained, lost } of comparison.flips) {
      lines.push(`- **${metric}**: ${gained.length} gained (0 → 1), ${lost.length} lost (1 → 0)`);
      if (gained.length > 0) lines.push(`  - gained: ${groupByType(gained)}`);
      if (lost.length > 0) lines.push(`  - lost: ${groupByType(lost)}`);
    }
  }
  return lines.join('\n');
}

function renderMetricsTable(
  metrics: CategoryComparison['metrics'],
  baseHeader: string,
  otherHeader: string,
): string {
  const body = metrics.map((metric) => [
    metric.metric,
    describeCounts(metric.nBase, metric.nOther, metric.nPaired),
    formatValue(metric.base),
    formatValue(metric.other),
    formatDelta(metric.delta),
    describeTest(metric.test),
    metric.test === null ? '-' : formatPValue(metric.test.pValue),
  ]);
  return renderMarkdownTable(['metric', 'n', baseHeader, otherHeader, 'delta', 'test', 'p'], body);
}

/** The comparison as markdown: one section per compared run, one table per category. */
export function renderComparison(result: ComparisonResult): string {
  return `${result.comparisons.map((comparison) => renderOne(comparison, result)).join('\n\n')}\n`;
}

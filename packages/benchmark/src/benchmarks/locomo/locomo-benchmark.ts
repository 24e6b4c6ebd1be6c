import type { Benchmark } from '../benchmark.js';
import { aggregateLocomo } from './aggregate-locomo.js';
import { isLocomoShaped, loadLocomo } from './load-locomo.js';
import { LOCOMO_CATEGORY_ORDER, locomoQuestionType } from './locomo-categories.js';
import { locomoQaMetrics } from './locomo-qa-metrics.js';
import { renderLocomoTables } from './locomo-report.js';
import { locomoRetrievalMetrics } from './locomo-retrieval-metrics.js';

/**
 * LoCoMo (`locomo10.json`): two speakers, QA in five categories, each conversation mapped onto the
 * common record (`locomoRecords`). Beside the shared metrics it reports the official recall_acc,
 * the official token F1 and their aggregation, and its report tables.
 */
export const locomoBenchmark: Benchmark = {
  name: 'locomo',
  description:
    'LoCoMo: two speakers, QA in five categories (single-hop, multi-hop, temporal, open-domain, adversarial)',
  recognizes: isLocomoShaped,
  load: async (path, options = {}) => {
    const loaded = await loadLocomo(path);
    for (const warning of loaded.warnings) options.onWarning?.(`${path}: ${warning}`);
    for (const [position, record] of loaded.records.entries()) options.onRecord?.(record, position);
    return loaded;
  },
  questionTypes: LOCOMO_CATEGORY_ORDER.map(locomoQuestionType),
  judgeRubric: 'locomo-llm',
  readerPrompt: 'locomo',
  retrievalMetrics: (options) => locomoRetrievalMetrics(options),
  answerMetrics: (record, hypothesis) => locomoQaMetrics(record, hypothesis),
  aggregate: (samples, qa) => {
    const locomo = aggregateLocomo(samples, qa);
    return locomo ? { locomo } : undefined;
  },
  tables: (summary, samples) => renderLocomoTables(summary, samples),
};

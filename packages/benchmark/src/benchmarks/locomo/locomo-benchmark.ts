import { type Benchmark, RECORD_EVIDENCE_GOLD } from '../benchmark.js';
import { aggregateLocomo } from './aggregate-locomo.js';
import { LOCOMO_PROBES } from './judge-probes.js';
import { isLocomoShaped, loadLocomo } from './load-locomo.js';
import { LOCOMO_CATALOG } from './locomo-catalog.js';
import {
  LOCOMO_ADVERSARIAL,
  LOCOMO_CATEGORY_ORDER,
  locomoCategoryOf,
  locomoQuestionType,
} from './locomo-categories.js';
import { locomoCategoryIdOf, locomoEvidenceCorrected, locomoEvidenceOf } from './locomo-errata.js';
import { locomoLlmRubric, mem0JudgeGrades } from './locomo-judge.js';
import { LOCOMO_TURN_FORMS, locomoReaderPromptDefinition } from './locomo-prompts.js';
import { locomoQaMetrics } from './locomo-qa-metrics.js';
import { renderLocomoTables } from './locomo-report.js';
import { locomoRetrievalMetrics } from './locomo-retrieval-metrics.js';

/**
 * LoCoMo (`locomo10.json`): two speakers, QA in five categories, each conversation mapped onto the
 * common record (`locomoRecords`). It has no official retrieval gold of LongMemEval's kind, so it
 * grades under the record's evidence only. Beside the shared metrics it reports the official
 * recall_acc, the official token F1 and their aggregation, and its report tables.
 */
export const locomoBenchmark: Benchmark = {
  name: 'locomo',
  description:
    'LoCoMo: two speakers, QA in five categories (single-hop, multi-hop, temporal, open-domain, adversarial)',
  formatHint: 'a LoCoMo file (an array of conversations, or one conversation with "conversation" and "qa")',
  recognizes: isLocomoShaped,
  load: async (path, options = {}) => {
    const loaded = await loadLocomo(path);
    for (const warning of loaded.warnings) options.onWarning?.(`${path}: ${warning}`);
    for (const [position, record] of loaded.records.entries()) options.onRecord?.(record, position);
    return loaded;
  },
  questionTypes: LOCOMO_CATEGORY_ORDER.map(locomoQuestionType),
  catalog: LOCOMO_CATALOG,
  statisticsNote: (rows) =>
    `\nLoCoMo categories:\n${rows
      .flatMap((row) => {
        const category = locomoCategoryOf(row.label);
        return category ? [`category ${category.id} ${category.name}: ${row.questions} questions\n`] : [];
      })
      .join('')}`,
  conventions: { evidence: RECORD_EVIDENCE_GOLD },
  turnForms: LOCOMO_TURN_FORMS,
  defaults: { convention: 'evidence', judge: 'locomo-llm', readerPrompt: 'locomo' },
  /** Mem0's published LoCoMo judge; categories 1-4 only. */
  judges: { 'locomo-llm': { ...locomoLlmRubric, grades: mem0JudgeGrades, probes: LOCOMO_PROBES } },
  readerPrompts: { locomo: locomoReaderPromptDefinition },
  comparedMetrics: ['qa.locomo_f1'],
  errataCeilings: {
    locomo_judge_accuracy: {
      label: 'LoCoMo judge accuracy (categories 1-4)',
      counts: (sample) => {
        const category = locomoCategoryOf(sample.question_type)?.id;
        return category !== undefined && category !== LOCOMO_ADVERSARIAL;
      },
    },
  },
  errata: {
    evidence: locomoEvidenceOf,
    category: locomoCategoryIdOf,
    correctEvidence: locomoEvidenceCorrected,
  },
  retrievalMetrics: (options) => locomoRetrievalMetrics(options),
  answerMetrics: (record, hypothesis) => locomoQaMetrics(record, hypothesis),
  aggregate: (samples, qa) => {
    const locomo = aggregateLocomo(samples, qa);
    return locomo ? { locomo } : undefined;
  },
  tables: (summary, samples) => renderLocomoTables(summary, samples),
};

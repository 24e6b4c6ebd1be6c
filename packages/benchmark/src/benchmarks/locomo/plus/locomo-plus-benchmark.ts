import { type Benchmark, RECORD_EVIDENCE_GOLD } from '../../benchmark.js';
import { aggregateLocomoPlus, type LocomoPlusBlock, renderLocomoPlusTable } from './aggregate-locomo-plus.js';
import { isLocomoPlusShaped, loadLocomoPlus } from './load-locomo-plus.js';
import { LOCOMO_PLUS_CATALOG } from './locomo-plus-catalog.js';
import { LOCOMO_PLUS_CATEGORY_ORDER, locomoPlusQuestionType } from './locomo-plus-categories.js';
import { locomoPlusJudgeRubric } from './locomo-plus-judge.js';
import { locomoPlusReaderPromptDefinition } from './locomo-plus-reader-prompt.js';

/**
 * LoCoMo-Plus (xjtuleeyf/Locomo-Plus): LoCoMo's QA in five categories plus a sixth, Cognitive,
 * whose cue dialogue is stitched into a LoCoMo conversation and whose trigger query, asked later,
 * should call it up. Read from the repository's `data/locomo_plus.json` with `locomo10.json` beside
 * it; gold is the record's evidence (LoCoMo's evidence turns; the cue session of a Cognitive
 * question); graded by its own judge (`locomo-plus`: correct 1, partial 0.5, wrong 0) on its own
 * model input (`locomo-plus` reader prompt).
 */
export const locomoPlusBenchmark: Benchmark = {
  name: 'locomo-plus',
  description:
    'LoCoMo-Plus: LoCoMo QA (single-hop, multi-hop, temporal, common-sense, adversarial) plus Cognitive cue/trigger questions',
  formatHint:
    'LoCoMo-Plus data/locomo_plus.json (items with cue_dialogue, trigger_query, time_gap; locomo10.json beside it)',
  recognizes: isLocomoPlusShaped,
  load: async (path, options = {}) => {
    const loaded = await loadLocomoPlus(path);
    for (const warning of loaded.warnings) options.onWarning?.(`${path}: ${warning}`);
    for (const [position, record] of loaded.records.entries()) options.onRecord?.(record, position);
    return loaded;
  },
  catalog: LOCOMO_PLUS_CATALOG,
  questionTypes: LOCOMO_PLUS_CATEGORY_ORDER.map(locomoPlusQuestionType),
  conventions: { evidence: RECORD_EVIDENCE_GOLD },
  defaults: { convention: 'evidence', judge: 'locomo-plus', readerPrompt: 'locomo-plus' },
  judges: { 'locomo-plus': locomoPlusJudgeRubric },
  readerPrompts: { 'locomo-plus': locomoPlusReaderPromptDefinition },
  aggregate: (samples, qa) => aggregateLocomoPlus(samples, qa),
  tables: (summary) =>
    renderLocomoPlusTable((summary as unknown as { locomo_plus?: LocomoPlusBlock }).locomo_plus),
};

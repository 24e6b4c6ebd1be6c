import { type Benchmark, RECORD_EVIDENCE_GOLD } from '../benchmark.js';
import { isRealtalkFolder, loadRealtalk, realtalkChatFiles } from './load-realtalk.js';
import { REALTALK_CATALOG } from './realtalk-catalog.js';
import { REALTALK_CATEGORY_ORDER, realtalkCategoryOf, realtalkQuestionType } from './realtalk-categories.js';
import { isRealtalkShaped } from './realtalk-chat.js';
import { downloadRealtalk, resolveRealtalkFolder } from './realtalk-download.js';
import { realtalkJudgeRubric } from './realtalk-judge.js';
import { realtalkReaderPromptDefinition } from './realtalk-prompts.js';
import {
  aggregateRealtalk,
  REALTALK_LEXICAL,
  type RealtalkBlock,
  realtalkAnswerMetrics,
  renderRealtalkTable,
} from './realtalk-scores.js';

/**
 * REALTALK (danny911kr/REALTALK, Lee et al. 2025): ten real messaging-app chats between two people
 * over 21 days, in LoCoMo's shape with other field names, and memory-probing questions in three
 * categories with evidence dialog ids. A dataset is the folder of chats (`--dataset realtalk`) or
 * one chat file. Gold is the evidence turns and their sessions; answers get the official lexical
 * score (`qa.realtalk_lexical`) and, with a judge, the official GPT score.
 */
export const realtalkBenchmark: Benchmark = {
  name: 'realtalk',
  description:
    'REALTALK: real two-person chats over 21 days, memory probing in three categories (fact, date, inference)',
  formatHint:
    'a REALTALK chat (one object with session_<n>, session_<n>_date_time and qa) or a folder of Chat_<n>_<A>_<B>.json',
  recognizesPath: (path) => isRealtalkFolder(path),
  datasetFiles: (path) => realtalkChatFiles(path),
  recognizes: isRealtalkShaped,
  load: async (path, options = {}) => {
    const loaded = await loadRealtalk(path);
    for (const warning of loaded.warnings) options.onWarning?.(warning);
    for (const [position, record] of loaded.records.entries()) options.onRecord?.(record, position);
    return loaded;
  },
  datasets: { names: ['realtalk'], resolve: (_name, dataDir) => resolveRealtalkFolder(dataDir) },
  downloads: {
    names: ['realtalk'],
    download: async (name, { dataDir, baseUrl }) => {
      const result = await downloadRealtalk({ dataDir, ...(baseUrl ? { rawUrl: baseUrl } : {}) });
      return `${name}: ${result.files} files (${result.fetched} downloaded, ${result.alreadyPresent} already present), size and SHA-256 verified: ${result.folder}`;
    },
  },
  catalog: REALTALK_CATALOG,
  questionTypes: REALTALK_CATEGORY_ORDER.map(realtalkQuestionType),
  statisticsNote: (rows) =>
    `\nREALTALK categories:\n${rows
      .flatMap((row) => {
        const category = realtalkCategoryOf(row.label);
        return category ? [`category ${category}: ${row.questions} questions\n`] : [];
      })
      .join('')}`,
  conventions: { evidence: RECORD_EVIDENCE_GOLD },
  defaults: { convention: 'evidence', judge: 'realtalk-gpt', readerPrompt: 'realtalk' },
  judges: { 'realtalk-gpt': realtalkJudgeRubric },
  readerPrompts: { realtalk: realtalkReaderPromptDefinition },
  comparedMetrics: [REALTALK_LEXICAL],
  answerMetrics: (record, hypothesis) => realtalkAnswerMetrics(record, hypothesis),
  aggregate: (samples, qa) => aggregateRealtalk(samples, qa),
  tables: (summary) => renderRealtalkTable((summary as unknown as { realtalk?: RealtalkBlock }).realtalk),
};

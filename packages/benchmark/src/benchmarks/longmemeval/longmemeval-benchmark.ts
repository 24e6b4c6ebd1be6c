import { pythonFormat } from '../../dataset/python-compat.js';
import { type Benchmark, RECORD_EVIDENCE_GOLD } from '../benchmark.js';
import { QUESTION_TYPES } from '../longmemeval-record.js';
import { LONGMEMEVAL_PROBES } from './judge-probes.js';
import {
  COMMITTED_SAMPLE,
  DATASET_FILES,
  loadLongMemEval,
  resolveDatasetPath,
  streamLongMemEval,
} from './load-longmemeval.js';
import { buildJudgePrompt, parseJudgeReply } from './longmemeval-rubric.js';
import { LONGMEMEVAL_OFFICIAL_GOLD } from './official-gold.js';
import {
  CON_NOTE_MAX_TOKENS,
  CON_NOTE_TEMPLATE,
  FULL_HISTORY_TOP_K,
  HISTORY_JSON_PREFIX,
  HISTORY_NL_TURN_TEMPLATE,
  HISTORY_SESSION_TEMPLATE,
  JUDGE_MAX_TOKENS,
  OFFICIAL_JUDGE_MODEL,
  OFFICIAL_MODEL_MAX_LENGTH,
  OFFICIAL_READER_MAX_TOKENS,
  READER_PROMPT_RESERVE_TOKENS,
  READER_TEMPLATE_COT,
  READER_TEMPLATE_DIRECT,
} from './official-prompts.js';
import { verifyDatasets } from './verify-datasets.js';

/**
 * LongMemEval (oracle, S, M): the common record is its own format, so it reads any file no other
 * benchmark recognises (its loader validates every record), and streams it. Its figures are the
 * shared retrieval metrics, under its official gold or the record's evidence, and the official
 * judge's accuracy.
 */
export const longMemEvalBenchmark: Benchmark = {
  name: 'longmemeval',
  description: 'LongMemEval (oracle, S, M): one user, many sessions, six question types plus abstention',
  formatHint: 'a JSON array of LongMemEval question records',
  recognizes: () => true,
  load: async (path, options = {}) => ({ ...(await loadLongMemEval(path, options)), warnings: [] }),
  stream: (path, options = {}) => streamLongMemEval(path, options),
  datasets: {
    names: Object.keys(DATASET_FILES),
    resolve: (name, dataDir) => resolveDatasetPath(name, dataDir),
  },
  publishedFiles: {
    committedSample: COMMITTED_SAMPLE,
    verify: (sources, names, dataDir) => verifyDatasets(sources, names, dataDir),
  },
  questionTypes: QUESTION_TYPES,
  conventions: { official: LONGMEMEVAL_OFFICIAL_GOLD, evidence: RECORD_EVIDENCE_GOLD },
  /** memini's session documents (`bench/` `-session-doc full`): `role: content` for every turn. */
  turnForms: {
    'role-prefixed': {
      description: 'memini: <role>: <content>',
      write: (content, role) => `${role}: ${content}`,
    },
  },
  defaults: { convention: 'official', judge: 'longmemeval', readerPrompt: 'cot' },
  judges: {
    /** evaluate_qa.py `get_anscheck_prompt`, byte for byte. */
    longmemeval: {
      description: 'official LongMemEval rubric per question type (evaluate_qa.py)',
      prompt: (record, hypothesis) => buildJudgePrompt(record, hypothesis),
      parse: (reply) => parseJudgeReply(reply),
      gradesAbstention: true,
      probes: LONGMEMEVAL_PROBES,
    },
  },
  /** run_generation.py's `--cot false` and `--cot true` templates (`merge_key_expansion_into_value == 'none'`), byte for byte. */
  readerPrompts: {
    direct: {
      description: 'official --cot false: answer directly',
      fill: ({ history, questionDate, question }) =>
        pythonFormat(READER_TEMPLATE_DIRECT, history, questionDate, question),
    },
    cot: {
      description: 'official --cot true (reading method "con"): extract, then reason step by step',
      fill: ({ history, questionDate, question }) =>
        pythonFormat(READER_TEMPLATE_COT, history, questionDate, question),
    },
  } /** run_generation.py's and evaluate_qa.py's machinery, which the shared reader and judge use (official-prompts.ts). */,
  qaSettings: {
    historySessionTemplate: HISTORY_SESSION_TEMPLATE,
    historyNlTurnTemplate: HISTORY_NL_TURN_TEMPLATE,
    historyJsonPrefix: HISTORY_JSON_PREFIX,
    modelMaxLength: OFFICIAL_MODEL_MAX_LENGTH,
    readerMaxTokens: OFFICIAL_READER_MAX_TOKENS,
    promptReserveTokens: READER_PROMPT_RESERVE_TOKENS,
    noteTemplate: CON_NOTE_TEMPLATE,
    noteMaxTokens: CON_NOTE_MAX_TOKENS,
    fullHistoryTopK: FULL_HISTORY_TOP_K,
    judgeModel: OFFICIAL_JUDGE_MODEL,
    judgeMaxTokens: JUDGE_MAX_TOKENS,
    parseJudgeReply,
  },
};

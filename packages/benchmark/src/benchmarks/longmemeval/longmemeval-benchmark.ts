import type { Benchmark } from '../benchmark.js';
import { QUESTION_TYPES } from '../longmemeval-record.js';
import { loadLongMemEval } from './load-longmemeval.js';

/**
 * LongMemEval (oracle, S, M): the common record is its own format, so it reads any file no other
 * benchmark recognises (its loader validates every record). Its figures are the shared retrieval
 * metrics and the official judge's accuracy.
 */
export const longMemEvalBenchmark: Benchmark = {
  name: 'longmemeval',
  description: 'LongMemEval (oracle, S, M): one user, many sessions, six question types plus abstention',
  recognizes: () => true,
  load: async (path, options = {}) => ({ ...(await loadLongMemEval(path, options)), warnings: [] }),
  questionTypes: QUESTION_TYPES,
  judgeRubric: 'longmemeval',
  readerPrompt: 'cot',
};

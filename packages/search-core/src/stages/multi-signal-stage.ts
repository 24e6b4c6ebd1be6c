import type { QueryClass } from '../query/query-class.js';
import { understandQuery } from '../query/understand-query.js';
import { DEFAULT_SIGNAL_WEIGHTS, rankMultiSignal, type SignalWeights } from './multi-signal-ranking.js';
import type { Stage } from './stage.js';

export type MultiSignalStageOptions = {
  weightsByClass?: Partial<Record<QueryClass, Partial<SignalWeights>>>;
};

/**
 * Query understanding and the multi-signal re-rank (`rankMultiSignal`): the question's entities,
 * temporal scope and class; the incoming score is the semantic signal.
 */
export function multiSignalStage(options: MultiSignalStageOptions = {}): Stage {
  const { weightsByClass } = options;
  return {
    name: 'multi_signal',
    apply(pool, { search, documents, trace }) {
      if (search.queryDate === undefined)
        throw new Error('multi-signal ranking needs the question date (queryDate)');
      const understanding = understandQuery({ question: search.query, questionDate: search.queryDate });
      trace.understanding = understanding;
      trace.signalWeights = {
        ...DEFAULT_SIGNAL_WEIGHTS[understanding.queryClass],
        ...weightsByClass?.[understanding.queryClass],
      };
      return rankMultiSignal({
        hits: pool,
        documents,
        understanding,
        ...(weightsByClass ? { weightsByClass } : {}),
      });
    },
  };
}

import { classifyQuery, type QueryClass } from './query-class.js';
import { type EntitySource, extractEntities } from './query-entities.js';
import { parseLongMemEvalDate, parseTemporalScope, type TemporalScope } from './temporal-scope.js';

export type QueryUnderstanding = {
  temporalScope?: TemporalScope;
  /** Quoted strings, capitalised names, then noun phrases; unique case-insensitively. */
  entities: string[];
  queryClass: QueryClass;
  /** The question date everything relative was resolved against. */
  referenceDate: Date;
  explain: {
    /** The text of the cue that chose the class; absent for `factual` (no cue). */
    classCue?: string;
    entitySources: { entity: string; source: EntitySource }[];
  };
};

export type UnderstandQueryOptions = {
  question: string;
  /** LongMemEval format `2023/05/30 (Tue) 23:40`, or a Date. */
  questionDate: string | Date;
};

/**
 * Reads a question the way the later stages need it: the time span it is about (resolved with
 * chrono against the question date), the entities it names, and its class.
 */
export function understandQuery({ question, questionDate }: UnderstandQueryOptions): QueryUnderstanding {
  const referenceDate = typeof questionDate === 'string' ? parseLongMemEvalDate(questionDate) : questionDate;
  if (!referenceDate || Number.isNaN(referenceDate.getTime()))
    throw new Error(
      `query understanding: question date "${String(questionDate)}" is not YYYY/MM/DD (Day) HH:MM`,
    );
  const temporal = parseTemporalScope(question, referenceDate);
  const { queryClass, cue } = classifyQuery(question);
  const entitySources = extractEntities(question, temporal?.spans ?? []);
  return {
    ...(temporal ? { temporalScope: temporal.scope } : {}),
    entities: entitySources.map(({ entity }) => entity),
    queryClass,
    referenceDate,
    explain: { ...(cue ? { classCue: cue } : {}), entitySources },
  };
}

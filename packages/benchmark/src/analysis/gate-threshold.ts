export type ComparisonOperator = '>=' | '>' | '<=' | '<';

/** `multi-session:session.recall_all@5>=0.7`: a metric of one summary row against a number. */
export type Threshold = {
  /** `overall` (the default), `abstention` or a question type. */
  scope: string;
  metric: string;
  operator: ComparisonOperator;
  value: number;
};

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const EXPRESSION = /^([^<>=\s]+?)\s*(>=|<=|>|<)\s*(\S+)$/;

/**
 * Parses `[<scope>:]<metric><op><number>`, op one of >=, >, <=, <. The scope (a question type,
 * `abstention` or `overall`) and the metric are checked against the summary by evaluateGate.
 */
export function parseThreshold(expression: string): Threshold {
  const match = EXPRESSION.exec(expression.trim());
  const shape =
    '[<question type>:]<metric><op><number> with op >=, >, <= or < (e.g. session.recall_all@5>=0.85)';
  if (match === null) throw new Error(`Threshold "${expression}" is not ${shape}.`);
  const [, target = '', operator, number = ''] = match;
  if (!NUMBER.test(number))
    throw new Error(`Threshold "${expression}" compares with "${number}", which is not a number.`);
  const colon = target.lastIndexOf(':');
  const scope = colon === -1 ? 'overall' : target.slice(0, colon);
  const metric = target.slice(colon + 1);
  if (scope === '' || metric === '') throw new Error(`Threshold "${expression}" is not ${shape}.`);
  return { scope, metric, operator: operator as ComparisonOperator, value: Number(number) };
}

/** A `--min` (operator >= or >) or `--max` (<= or <) expression. */
export function parseBound(expression: string, bound: 'min' | 'max'): Threshold {
  const threshold = parseThreshold(expression);
  const lower = threshold.operator === '>=' || threshold.operator === '>';
  if (lower !== (bound === 'min')) {
    throw new Error(
      `--${bound} "${expression}" must use ${bound === 'min' ? '>= or >' : '<= or <'} (use --${bound === 'min' ? 'max' : 'min'} for an ${bound === 'min' ? 'upper' : 'lower'} bound).`,
    );
  }
  return threshold;
}

export function formatThreshold(threshold: Threshold): string {
  const scope = threshold.scope === 'overall' ? '' : `${threshold.scope}:`;
  return `${scope}${threshold.metric}${threshold.operator}${threshold.value}`;
}

/** Whether an observed value meets a threshold's operator and value. */
export function holds(observed: number, operator: ComparisonOperator, value: number): boolean {
  if (operator === '>=') return observed >= value;
  if (operator === '>') return observed > value;
  if (operator === '<=') return observed <= value;
  return observed < value;
}

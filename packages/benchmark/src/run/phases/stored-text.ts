import type { Sample } from '../../results/sample.js';

/**
 * The most characters of one text field a sample stores: the hypothesis, the provider's answer
 * context, a judge's reasons and error, the question's error. Replies a reader, judge or provider
 * sends can be of any length (a 50 MB `reason` was seen); what the question was graded on is not
 * changed, only what samples.jsonl, samples.csv and hypotheses.jsonl keep of it. docs/outputs.md.
 */
export const STORED_TEXT_CAP = 20_000;

/** `text`, or its first `cap` characters and a marker saying how long it was. */
export function boundStoredText(text: string, cap: number = STORED_TEXT_CAP): string {
  if (text.length <= cap) return text;
  return `${text.slice(0, cap)} … [lme: cut to ${cap} of ${text.length} characters]`;
}

/** The sample with each of its free-text fields bounded by `STORED_TEXT_CAP`. */
export function boundSampleText(sample: Sample): Sample {
  const bounded: Sample = { ...sample };
  if (sample.hypothesis !== null) bounded.hypothesis = boundStoredText(sample.hypothesis);
  if (sample.answer_context !== undefined) bounded.answer_context = boundStoredText(sample.answer_context);
  if (sample.error !== null) bounded.error = boundStoredText(sample.error);
  if (sample.judge) {
    const { judge } = sample;
    bounded.judge = {
      ...judge,
      ...(judge.error === undefined ? {} : { error: boundStoredText(judge.error) }),
      ...(judge.items === undefined
        ? {}
        : {
            items: judge.items.map((item) => ({
              ...item,
              name: boundStoredText(item.name),
              ...(item.reason === undefined ? {} : { reason: boundStoredText(item.reason) }),
            })),
          }),
    };
  }
  return bounded;
}

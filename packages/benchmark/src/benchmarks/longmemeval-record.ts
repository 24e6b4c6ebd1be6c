import { z } from 'zod';

export const QUESTION_TYPES = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'multi-session',
  'knowledge-update',
  'temporal-reasoning',
] as const;

/** `2023/05/30 (Tue) 23:40`, the official date format (every loader's records, the provider protocol's dates). */
export const RECORD_DATE = /^\d{4}\/\d{2}\/\d{2} \([A-Z][a-z]{2}\) \d{2}:\d{2}$/;
const dateField = (missing: string) =>
  z.string({ error: missing }).regex(RECORD_DATE, { error: 'is not a date like "2023/05/30 (Tue) 23:40"' });

/**
 * One turn of a LongMemEval haystack session, as in the official files. The messages are the
 * problem half of `field "<path>" <message>` (see validateRecord).
 */
export const TurnSchema = z.object(
  {
    role: z.enum(['user', 'assistant'], { error: 'must be "user" or "assistant"' }),
    content: z.string({ error: 'is missing or not a string' }),
    /** Present (true) on evidence turns. */
    has_answer: z.boolean({ error: 'is not a boolean' }).optional(),
  },
  { error: 'is not a turn object' },
);

/** A question or an answer made of whitespace only says nothing a run could score. */
const notBlank = (text: string) => text.trim() !== '';

/** One LongMemEval question record as the official JSON files hold it (field names as there). */
export const LongMemEvalRecordSchema = z
  .object(
    {
      question_id: z.string({ error: 'is missing or not a string' }),
      question: z.string({ error: 'is missing or not a string' }).refine(notBlank, { error: 'is empty' }),
      question_type: z.enum(QUESTION_TYPES, { error: `must be one of ${QUESTION_TYPES.join(', ')}` }),
      /** Usually a string; 32 S answers are integers. */
      answer: z.union([z.string().refine(notBlank, { error: 'is empty' }), z.number()], {
        error: 'is missing or not a string or number',
      }),
      /** `2023/05/30 (Tue) 23:40` */
      question_date: dateField('is missing or not a string'),
      haystack_session_ids: z.array(z.string({ error: 'is not a string' }), {
        error: 'is missing or not an array',
      }),
      haystack_dates: z.array(dateField('is not a string'), { error: 'is missing or not an array' }),
      // A turn's content may be empty (12 turns of S are); a session with no turn may not.
      haystack_sessions: z.array(
        z.array(TurnSchema, { error: 'is not an array of turns' }).min(1, { error: 'holds no turns' }),
        { error: 'is missing or not an array' },
      ),
      answer_session_ids: z.array(z.string({ error: 'is not a string' }), {
        error: 'is missing or not an array',
      }),
    },
    { error: 'is not a JSON object' },
  )
  .check((context) => {
    const { haystack_session_ids: ids, haystack_dates: dates, haystack_sessions: sessions } = context.value;
    if (dates.length !== ids.length || sessions.length !== ids.length) {
      context.issues.push({
        code: 'custom',
        input: context.value,
        path: [],
        message: `fields "haystack_sessions", "haystack_dates" and "haystack_session_ids" must have equal lengths (got ${sessions.length}, ${dates.length}, ${ids.length})`,
      });
    }
  });

export type Turn = z.infer<typeof TurnSchema>;

/**
 * One question record: LongMemEval's, or another benchmark's mapped onto the same shape, which
 * brings its own question types (so `question_type` is any string here).
 */
export type LongMemEvalRecord = Omit<z.infer<typeof LongMemEvalRecordSchema>, 'question_type'> & {
  question_type: string;
};

export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Abstention questions keep their parent type; their id contains `_abs` (the official scripts test the substring). */
export function isAbstention(questionId: string): boolean {
  return questionId.includes('_abs');
}

/** Haystack indices of the evidence sessions, in haystack order; an evidence id missing from the haystack is an error. */
export function evidenceSessions(
  record: Pick<LongMemEvalRecord, 'question_id' | 'haystack_session_ids' | 'answer_session_ids'>,
): number[] {
  const present = new Set(record.haystack_session_ids);
  const missing = record.answer_session_ids.filter((id) => !present.has(id));
  if (missing.length > 0) {
    throw new Error(
      `Question ${record.question_id} lists answer session ${missing.join(', ')} that is not in its haystack.`,
    );
  }
  const evidence = new Set(record.answer_session_ids);
  return record.haystack_session_ids.flatMap((id, index) => (evidence.has(id) ? [index] : []));
}

import type { LongMemEvalRecord, Turn } from '../longmemeval-record.js';
import { BEAM_ABILITIES, type BeamAbility, isBeamAbility } from './beam-abilities.js';
import { beamConversationId, beamSessions } from './beam-sessions.js';
import { readSourceIds } from './beam-source-ids.js';

/**
 * A BEAM probing question as a common record, plus what BEAM's own scoring reads: the rubric items
 * its judge grades one by one, the conversation it belongs to and its gold message ids.
 */
export type BeamRecord = LongMemEvalRecord & {
  beam_rubric: string[];
  beam_conversation: string;
  /** `source_chat_ids` flattened, sorted: the message ids BEAM names as the question's evidence. */
  beam_evidence_messages: number[];
};

/** The answer field of each ability (`ideal_response`, `ideal_answer`, …), first present wins. */
const ANSWER_FIELDS = [
  'answer',
  'ideal_answer',
  'ideal_response',
  'ideal_summary',
  'expected_compliance',
] as const;

/**
 * One BEAM conversation's probing questions as common records:
 * - question_id `beam_c<conversation>_<ability>_<n>` (n 1-based within the ability; abstention ids
 *   contain `_abs`, so lme marks them abstention as it does LongMemEval's), question_type the ability;
 * - the haystack is the whole conversation (`beamSessions`), every message a turn with its role;
 *   question_date is the last session's date;
 * - has_answer on the messages `source_chat_ids` names (user or assistant: about a quarter of
 *   BEAM's gold messages are the assistant's), answer_session_ids the sessions holding them;
 *   abstention questions (and a few others) name none and have no retrieval target;
 * - answer the ability's reference field, beam_rubric its `rubric` items.
 * A gold id naming no message is a warning (left out of the gold), never silently dropped.
 */
export function beamConversationRecords(
  conversation: string,
  chat: unknown,
  probing: unknown,
): { records: BeamRecord[]; warnings: string[] } {
  const sessions = beamSessions(conversation, chat);
  const sessionOfMessage = new Map<number, number>();
  sessions.forEach((session, index) => {
    for (const message of session.messages) sessionOfMessage.set(message.id, index);
  });
  if (!probing || typeof probing !== 'object' || Array.isArray(probing))
    throw new Error('probing_questions.json is not a JSON object keyed by ability');
  const unknown = Object.keys(probing).filter((key) => !isBeamAbility(key));
  if (unknown.length > 0)
    throw new Error(
      `probing_questions.json: unknown ability ${unknown.map((key) => `"${key}"`).join(', ')}; known: ${BEAM_ABILITIES.join(', ')}`,
    );
  const warnings: string[] = [];
  const records: BeamRecord[] = [];
  const plainSessions = sessions.map((session) =>
    session.messages.map((message): Turn => ({ role: message.role, content: message.content })),
  );
  const ids = sessions.map((session) => session.id);
  const dates = sessions.map((session) => session.date);
  const questionDate = dates.at(-1) ?? '2024/01/01 (Mon) 00:00';
  for (const ability of BEAM_ABILITIES) {
    const questions = (probing as Record<string, unknown>)[ability];
    if (questions === undefined) continue;
    if (!Array.isArray(questions))
      throw new Error(`probing_questions.json: "${ability}" is not an array of questions`);
    questions.forEach((item, index) => {
      const questionId = `beam_c${beamConversationId(conversation)}_${ability}_${index + 1}`;
      const where = `probing_questions.json ${ability}[${index}]`;
      const value = item as Record<string, unknown> | null;
      if (!value || typeof value !== 'object') throw new Error(`${where}: is not a question object`);
      if (typeof value.question !== 'string')
        throw new Error(`${where}: field "question" is missing or not a string`);
      const rubric = value.rubric;
      if (!Array.isArray(rubric) || rubric.length === 0 || rubric.some((entry) => typeof entry !== 'string'))
        throw new Error(`${where}: field "rubric" is missing or not a non-empty list of strings`);
      const answerField = ANSWER_FIELDS.find((field) => typeof value[field] === 'string');
      const answer = answerField ? (value[answerField] as string) : (rubric as string[]).join('; ');
      const source = readSourceIds(value.source_chat_ids);
      if (source.invalid.length > 0)
        warnings.push(
          `question ${questionId} (${where}): field "source_chat_ids" holds ${source.invalid.slice(0, 5).join(', ')}${source.invalid.length > 5 ? ', …' : ''}, not a message id (a whole number); left out of the gold`,
        );
      const evidence = [...new Set(source.ids)].sort((a, b) => a - b);
      const missing = evidence.filter((id) => !sessionOfMessage.has(id));
      if (missing.length > 0)
        warnings.push(
          `question ${questionId} names message ${missing.join(', ')} that is not in chat.json (left out of the gold)`,
        );
      const gold = new Set(evidence.filter((id) => sessionOfMessage.has(id)));
      const goldSessions = new Set([...gold].map((id) => sessionOfMessage.get(id)!));
      records.push({
        question_id: questionId,
        question: value.question,
        question_type: ability satisfies BeamAbility,
        answer,
        question_date: questionDate,
        haystack_session_ids: ids,
        haystack_dates: dates,
        haystack_sessions: sessions.map((session, sessionIndex) =>
          goldSessions.has(sessionIndex)
            ? session.messages.map(
                (message): Turn =>
                  gold.has(message.id)
                    ? { role: message.role, content: message.content, has_answer: true }
                    : { role: message.role, content: message.content },
              )
            : plainSessions[sessionIndex]!,
        ),
        answer_session_ids: [...goldSessions].sort((a, b) => a - b).map((at) => ids[at]!),
        beam_rubric: [...(rubric as string[])],
        beam_conversation: conversation,
        beam_evidence_messages: [...gold].sort((a, b) => a - b),
      });
    });
  }
  return { records, warnings };
}

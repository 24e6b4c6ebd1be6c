// An lme plugin (docs/plugins.md): a benchmark from outside lme's source tree, of a format of its
// own (tiny-recall.json beside this file: sessions of [role, text] turns, questions whose evidence
// is "<session>:<turn>"). `-d tiny-recall` names the file beside the plugin; any file with
// "format": "tiny-recall/1" is recognised by its content. Retrieval is graded under the record's
// evidence like every benchmark's; answers get the official token F1 LoCoMo and REALTALK use.
//
//   lme run --plugin examples/tiny-recall-benchmark-plugin.mjs -d tiny-recall --preset bm25
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const FORMAT = 'tiny-recall/1';
const QUESTION_TYPES = ['tiny-fact', 'tiny-update'];

/** The file's questions as lme's common record: every question searches every session. */
function records(path, data) {
  const refuse = (where, problem) => {
    throw new Error(`${path}: ${where} ${problem}.`);
  };
  if (!Array.isArray(data.sessions) || !Array.isArray(data.questions))
    refuse('the file', 'needs sessions and questions arrays');
  const sessions = new Map(data.sessions.map((session) => [session.id, session]));
  return data.questions.map((question) => {
    if (!QUESTION_TYPES.includes(question.type))
      refuse(
        `question ${question.id}`,
        `has type "${question.type}", not one of ${QUESTION_TYPES.join(', ')}`,
      );
    const gold = new Set(question.evidence);
    for (const item of gold) {
      const [session, turn] = item.split(':');
      if (!sessions.get(session)?.turns[Number(turn) - 1])
        refuse(`question ${question.id}`, `names evidence "${item}", which is no turn of the file`);
    }
    return {
      question_id: question.id,
      question_type: question.type,
      question: question.question,
      answer: question.answer,
      question_date: question.date,
      haystack_session_ids: data.sessions.map((session) => session.id),
      haystack_dates: data.sessions.map((session) => session.date),
      haystack_sessions: data.sessions.map((session) =>
        session.turns.map(([role, content], index) => ({
          role,
          content,
          has_answer: gold.has(`${session.id}:${index + 1}`),
        })),
      ),
      answer_session_ids: [...new Set([...gold].map((item) => item.split(':')[0]))],
    };
  });
}

export default ({ RECORD_EVIDENCE_GOLD, stemmedTokenF1 }) => ({
  benchmarks: [
    {
      name: 'tiny-recall',
      description: "tiny-recall: one user's chats, questions about facts they stated or later changed",
      formatHint: 'a tiny-recall file (an object with "format": "tiny-recall/1", sessions and questions)',
      datasets: {
        names: ['tiny-recall'],
        resolve: () => fileURLToPath(new URL('./tiny-recall.json', import.meta.url)),
      },
      recognizes: (value) => value?.format === FORMAT,
      load: async (path, options = {}) => {
        const text = await readFile(path, 'utf8');
        const loaded = records(path, JSON.parse(text));
        for (const [position, record] of loaded.entries()) options.onRecord?.(record, position);
        return {
          path,
          sha256: createHash('sha256').update(text).digest('hex'),
          records: loaded,
          warnings: [],
        };
      },
      questionTypes: QUESTION_TYPES,
      conventions: { evidence: RECORD_EVIDENCE_GOLD },
      defaults: { convention: 'evidence', judge: 'tiny-contains', readerPrompt: 'tiny-plain' },
      judges: {
        'tiny-contains': {
          description: 'whether the answer says what the gold answer says',
          prompt: (record, hypothesis) =>
            `Question: ${record.question}\nGold answer: ${record.answer}\nResponse: ${hypothesis}\nDoes the response give the gold answer? Answer yes or no only.`,
        },
      },
      readerPrompts: {
        'tiny-plain': {
          description: 'the chat history, then the question',
          fill: ({ history, questionDate, question }) =>
            `${history}\n\nCurrent date: ${questionDate}\nQuestion: ${question}\nShort answer:`,
        },
      },
      comparedMetrics: ['qa.tiny_f1'],
      answerMetrics: (record, hypothesis) => ({
        'qa.tiny_f1': stemmedTokenF1(hypothesis, String(record.answer)),
      }),
    },
  ],
});

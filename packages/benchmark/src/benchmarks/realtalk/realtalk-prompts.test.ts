import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../load-dataset.js';
import type { RealtalkRecord } from './realtalk-chat.js';
import { realtalkReaderPromptDefinition } from './realtalk-prompts.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');

async function records(file: string): Promise<RealtalkRecord[]> {
  return (await loadAnyDataset(resolve(FIXTURES, file))).records as RealtalkRecord[];
}

/** Every session of the record, as the full-context provider hands them to the reader. */
function wholeHaystack(record: RealtalkRecord) {
  return record.haystack_sessions.map((turns, index) => ({
    sessionId: record.haystack_session_ids[index]!,
    date: record.haystack_dates[index]!,
    turns,
  }));
}

const SESSION_1 = `DATE: 02.03.2024, 18:10:05
CONVERSATION:
Ana said, "Hi Ben! I started pottery classes this week."
ben said, "Nice! I went hiking in Zion on Saturday."
Ana said, "Look at my first bowl"
Ana shared, an image of "a photo of a clay bowl on a wheel".

`;
const SESSION_2 = `DATE: 05.03.2024, 09:00:00
CONVERSATION:
Ana said, "How was the hike?"
ben said, "Great, and I also adopted a cat named Miso."
Ana said, "I'm moving to Denver in May, by the way."

`;
const SESSION_10 = `DATE: 11.03.2024, 21:30:00
CONVERSATION:
ben said, "Miso knocked my mug off the desk."
Ana said, "Cats will be cats, pottery mug next time?"

`;
const START =
  'Below is a conversation between two people: Ana and ben. The conversation takes place over multiple days and the date of each conversation is written at the beginning of the conversation.\n\n';
const QUESTION = `

Based on the above context, write an answer in the form of a short phrase for the following question.
If the question is about a date, try to infer the approximate date (e.g., "In the 1800s", "Before Jan 2021", etc.).

Question: What hobbies does Ana have?
Answer:
`;

describe('the realtalk reader prompt (official qa_tool.py invoke)', () => {
  it('writes the sessions latest first, each twice when the chat has events_session keys, as the official key scan does', async () => {
    const [record] = await records('Chat_1_Ana_Ben.json');
    const built = realtalkReaderPromptDefinition.build!({ record: record!, chunks: wholeHaystack(record!) });
    expect(built.text).toBe(
      START + SESSION_10 + SESSION_10 + SESSION_2 + SESSION_2 + SESSION_1 + SESSION_1 + QUESTION,
    );
    expect(built.finish(' May 2024\n')).toBe(' May 2024\n');
  });

  it('writes each session once in a chat without events_session keys, and only the sessions handed to it', async () => {
    const [record] = await records('Chat_2_Cy_Dee.json');
    const built = realtalkReaderPromptDefinition.build!({ record: record!, chunks: wholeHaystack(record!) });
    expect(built.text).toContain('two people: Cy and Dee.');
    expect(built.text.match(/DATE: /g)).toHaveLength(1);
    // Two turns with the same text are two lines, as in the chat.
    expect(built.text).toContain(
      'Dee said, "Congrats Cy!"\nDee said, "This message was deleted."\nCy said, "Thanks!"\nDee said, "This message was deleted."\n\n',
    );
    const [chat1] = await records('Chat_1_Ana_Ben.json');
    const retrieved = wholeHaystack(chat1!).filter((session) => session.sessionId.endsWith('_s2'));
    const text = realtalkReaderPromptDefinition.build!({ record: chat1!, chunks: retrieved }).text;
    expect(text).toBe(START + SESSION_2 + SESSION_2 + QUESTION);
  });

  it('refuses a record that is not a REALTALK question', () => {
    expect(() =>
      realtalkReaderPromptDefinition.build!({
        record: { question_id: 'x_q1', question: 'Who?' },
        chunks: [],
      }),
    ).toThrow('--reader-prompt realtalk: question x_q1 is not a REALTALK question');
  });
});

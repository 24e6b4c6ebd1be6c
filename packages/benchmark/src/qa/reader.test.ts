import { describe, expect, it } from 'vitest';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { countTokens, truncateToTokens } from '../metrics/truncate-tokens.js';
import { createScriptedChatClient } from '../testing/scripted-chat-client.js';
import { buildReaderPrompt, createReader } from './reader.js';
import { readerPrompts } from './reader-prompts.js';
import { fullContextSessions } from './reader-sessions.js';

/** A client that records requests and answers with a fixed reply. */
const fakeClient = (reply: string) =>
  createScriptedChatClient([reply], {
    usage: { promptTokens: 900, completionTokens: 12 },
    cached: false,
    latencyMs: 5,
  });

// A small record shaped like LongMemEval S: sessions out of date order, evidence turns marked,
// non-ASCII text, whitespace around contents.
const record: LongMemEvalRecord = {
  question_id: 'gpt4_59c863d7',
  question_type: 'temporal-reasoning',
  question: 'How many days passed between my first yoga class and the pottery workshop?',
  answer: '22 days. 23 days (including the last day) is also acceptable.',
  question_date: '2023/05/30 (Tue) 23:40',
  haystack_session_ids: ['sharegpt_yywfag_0', 'answer_4be1b6b4_1', 'answer_4be1b6b4_2'],
  haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/04/10 (Mon) 17:50', '2023/05/02 (Tue) 09:15'],
  haystack_sessions: [
    [
      { role: 'user', content: 'Can you suggest a good recipe for banana bread?' },
      { role: 'assistant', content: 'Sure! Mash 3 ripe bananas...  ' },
    ],
    [
      {
        role: 'user',
        content:
          'I just got back from my first yoga class at the studio near café Lumière, it was great! Any tips for sore muscles?',
        has_answer: true,
      },
      {
        role: 'assistant',
        content: '  Congratulations on your first class! Try gentle stretching and stay hydrated.\n',
      },
    ],
    [
      {
        role: 'user',
        content: 'I signed up for a pottery workshop today 🏺. What should I wear?',
        has_answer: true,
      },
      { role: 'assistant', content: "Wear old clothes you don't mind getting clay on." },
    ],
  ],
  answer_session_ids: ['answer_4be1b6b4_1', 'answer_4be1b6b4_2'],
};

// Expected prompts produced by the official run_generation.py logic (prepare_prompt with
// retriever_type 'orig-session', Python json.dumps) on the record above.
const EXPECTED_COT_JSON = [
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n',
  '\n',
  '\n',
  'History Chats:\n',
  '\n',
  '\n',
  '### Session 1:\n',
  'Session Date: 2023/04/10 (Mon) 17:50\n',
  'Session Content:\n',
  '\n',
  '[{"role": "user", "content": "I just got back from my first yoga class at the studio near caf\\u00e9 Lumi\\u00e8re, it was great! Any tips for sore muscles?"}, {"role": "assistant", "content": "  Congratulations on your first class! Try gentle stretching and stay hydrated.\\n"}]\n',
  '\n',
  '### Session 2:\n',
  'Session Date: 2023/05/02 (Tue) 09:15\n',
  'Session Content:\n',
  '\n',
  '[{"role": "user", "content": "I signed up for a pottery workshop today \\ud83c\\udffa. What should I wear?"}, {"role": "assistant", "content": "Wear old clothes you don\'t mind getting clay on."}]\n',
  '\n',
  '### Session 3:\n',
  'Session Date: 2023/05/20 (Sat) 02:21\n',
  'Session Content:\n',
  '\n',
  '[{"role": "user", "content": "Can you suggest a good recipe for banana bread?"}, {"role": "assistant", "content": "Sure! Mash 3 ripe bananas...  "}]\n',
  '\n',
  '\n',
  'Current Date: 2023/05/30 (Tue) 23:40\n',
  'Question: How many days passed between my first yoga class and the pottery workshop?\n',
  'Answer (step by step):',
].join('');

const EXPECTED_DIRECT_NL = [
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n',
  '\n',
  '\n',
  'History Chats:\n',
  '\n',
  '\n',
  '### Session 1:\n',
  'Session Date: 2023/04/10 (Mon) 17:50\n',
  'Session Content:\n',
  '\n',
  '\n',
  'user: I just got back from my first yoga class at the studio near caf\u00e9 Lumi\u00e8re, it was great! Any tips for sore muscles?\n',
  '\n',
  'assistant: Congratulations on your first class! Try gentle stretching and stay hydrated.\n',
  '\n',
  '### Session 2:\n',
  'Session Date: 2023/05/02 (Tue) 09:15\n',
  'Session Content:\n',
  '\n',
  '\n',
  'user: I signed up for a pottery workshop today \ud83c\udffa. What should I wear?\n',
  '\n',
  "assistant: Wear old clothes you don't mind getting clay on.\n",
  '\n',
  '### Session 3:\n',
  'Session Date: 2023/05/20 (Sat) 02:21\n',
  'Session Content:\n',
  '\n',
  '\n',
  'user: Can you suggest a good recipe for banana bread?\n',
  '\n',
  'assistant: Sure! Mash 3 ripe bananas...\n',
  '\n',
  '\n',
  'Current Date: 2023/05/30 (Tue) 23:40\n',
  'Question: How many days passed between my first yoga class and the pottery workshop?\n',
  'Answer:',
].join('');

const EXPECTED_COT_NL_USER_ONLY = [
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n',
  '\n',
  '\n',
  'History Chats:\n',
  '\n',
  '\n',
  '### Session 1:\n',
  'Session Date: 2023/04/10 (Mon) 17:50\n',
  'Session Content:\n',
  '\n',
  '\n',
  'user: I just got back from my first yoga class at the studio near caf\u00e9 Lumi\u00e8re, it was great! Any tips for sore muscles?\n',
  '\n',
  '### Session 2:\n',
  'Session Date: 2023/05/02 (Tue) 09:15\n',
  'Session Content:\n',
  '\n',
  '\n',
  'user: I signed up for a pottery workshop today \ud83c\udffa. What should I wear?\n',
  '\n',
  '### Session 3:\n',
  'Session Date: 2023/05/20 (Sat) 02:21\n',
  'Session Content:\n',
  '\n',
  '\n',
  'user: Can you suggest a good recipe for banana bread?\n',
  '\n',
  '\n',
  'Current Date: 2023/05/30 (Tue) 23:40\n',
  'Question: How many days passed between my first yoga class and the pottery workshop?\n',
  'Answer (step by step):',
].join('');

describe('createReader', () => {
  it('builds the official step-by-step prompt with json history, sorted by date, and sends official settings', async () => {
    const client = fakeClient('  It was 22 days.\n');
    const reader = createReader({ client, model: 'gpt-4o-2024-08-06', prompt: 'cot', historyFormat: 'json' });
    const result = await reader.answer({ record, sessions: fullContextSessions(record) });

    expect(client.requests).toHaveLength(1);
    const request = client.requests[0]!;
    expect(request.messages).toEqual([{ role: 'user', content: EXPECTED_COT_JSON }]);
    expect(request).toMatchObject({ model: 'gpt-4o-2024-08-06', temperature: 0, maxTokens: 800, n: 1 });
    expect(result).toMatchObject({
      hypothesis: 'It was 22 days.',
      usage: { promptTokens: 900, completionTokens: 12 },
      cached: false,
      latencyMs: 5,
      truncated: false,
    });
    expect(result.historyTokens).toBeGreaterThan(100);
    expect(reader.id).toBe('reader:gpt-4o-2024-08-06:cot:json');
  });

  it('builds the official direct prompt with natural-language history and sends 800 answer tokens, as the official script does', async () => {
    // run_generation.py: `gen_length = 500 if not args.cot else 800`, args.cot the string 'false' (truthy).
    const client = fakeClient('22 days');
    const reader = createReader({ client, model: 'gpt-4o-mini', prompt: 'direct', historyFormat: 'nl' });
    await reader.answer({ record, sessions: fullContextSessions(record) });
    expect(client.requests[0]?.messages[0]?.content).toBe(EXPECTED_DIRECT_NL);
    expect(client.requests[0]?.maxTokens).toBe(800);
  });

  it('sends the max_tokens it is given (--reader-max-tokens) and budgets the history with it', async () => {
    const client = fakeClient('22 days');
    const reader = createReader({
      client,
      model: 'gpt-4o',
      prompt: 'direct',
      historyFormat: 'nl',
      maxTokens: 500,
    });
    await reader.answer({ record, sessions: fullContextSessions(record) });
    expect(client.requests[0]?.maxTokens).toBe(500);
  });

  it('drops assistant turns when userOnly is set', async () => {
    const client = fakeClient('22 days');
    const reader = createReader({
      client,
      model: 'gpt-4o',
      prompt: 'cot',
      historyFormat: 'nl',
      userOnly: true,
    });
    await reader.answer({ record, sessions: fullContextSessions(record) });
    expect(client.requests[0]?.messages[0]?.content).toBe(EXPECTED_COT_NL_USER_ONLY);
  });

  it('does not change the sessions it is given', async () => {
    const sessions = fullContextSessions(record);
    const before = JSON.stringify(sessions);
    await createReader({
      client: fakeClient('x'),
      model: 'gpt-4o',
      prompt: 'cot',
      historyFormat: 'json',
    }).answer({
      record,
      sessions,
    });
    expect(JSON.stringify(sessions)).toBe(before);
    expect(record.haystack_sessions[1]?.[0]?.has_answer).toBe(true);
  });

  it('keeps the start of the history when it exceeds the token budget', async () => {
    const client = fakeClient('I do not know.');
    // 800 answer tokens + 1000 reserved + 40 history tokens.
    const reader = createReader({
      client,
      model: 'gpt-4o',
      prompt: 'direct',
      historyFormat: 'json',
      maxContextTokens: 1840,
    });
    const result = await reader.answer({ record, sessions: fullContextSessions(record) });
    const prompt = client.requests[0]?.messages[0]?.content ?? '';
    expect(result.truncated).toBe(true);
    expect(result.historyTokens).toBeGreaterThan(40);
    expect(prompt).toContain('### Session 1:\nSession Date: 2023/04/10 (Mon) 17:50');
    expect(prompt).not.toContain('### Session 3:');
    expect(
      prompt.endsWith('\n\nCurrent Date: 2023/05/30 (Tue) 23:40\nQuestion: ' + record.question + '\nAnswer:'),
    ).toBe(true);
    const history = prompt.slice(
      prompt.indexOf('History Chats:\n\n') + 16,
      prompt.indexOf('\n\nCurrent Date:'),
    );
    expect(countTokens(history)).toBeLessThanOrEqual(41);
  });

  it('uses the official context length for known models and 128000 otherwise', () => {
    const sessions = fullContextSessions(record);
    const built = buildReaderPrompt({
      question: record.question,
      questionDate: record.question_date,
      sessions,
      prompt: 'cot',
      historyFormat: 'json',
      maxHistoryTokens: 128000 - 800 - 1000,
    });
    expect(built.text).toBe(EXPECTED_COT_JSON);
    expect(() =>
      createReader({
        client: fakeClient(''),
        model: 'tiny',
        prompt: 'cot',
        historyFormat: 'json',
        maxContextTokens: 1500,
      }),
    ).toThrow('Reader model "tiny": maxContextTokens 1500 leaves no room');
  });
});

describe('truncateToTokens', () => {
  it('counts and cuts with o200k_base offline', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(truncateToTokens('hello world', 1)).toEqual({ text: 'hello', tokens: 2, truncated: true });
    expect(truncateToTokens('hello world', 5)).toEqual({ text: 'hello world', tokens: 2, truncated: false });
  });

  it('treats <|endoftext|> as the special token, like allowed_special in the official script', () => {
    expect(countTokens('<|endoftext|>')).toBe(1);
  });
});

describe('Chain-of-Note (--reader-notes)', () => {
  it('extracts a note per chunk with the official note prompt, then answers over the notes', async () => {
    const requests: import('@lme/search-core').ChatCompleteOptions[] = [];
    const client = {
      id: 'notes',
      async complete(request: import('@lme/search-core').ChatCompleteOptions) {
        requests.push(request);
        const text = request.maxTokens === 500 ? `  note ${requests.length} \u00e9\n` : 'answer';
        return {
          text,
          texts: [text],
          usage: { promptTokens: 10, completionTokens: 2 },
          cached: false,
          latencyMs: 1,
        };
      },
    };
    const reader = createReader({
      client,
      model: 'gpt-4o',
      prompt: 'cot',
      historyFormat: 'json',
      notes: true,
      noteConcurrency: 1,
    });
    const result = await reader.answer({ record, sessions: fullContextSessions(record) });
    expect(requests.map((request) => request.maxTokens)).toEqual([500, 500, 500, 800]);
    expect(requests[0]?.messages[0]?.content).toBe(
      'I will give you a chat history between you and a user, as well as a question from the user. Write reading notes to extract all the relevant user information relevant to answering the answer. If no relevant information is found, just output "empty". \n\n\nChat History:\nSession Date: 2023/05/20 (Sat) 02:21\nSession Content:\n[{"role": "user", "content": "Can you suggest a good recipe for banana bread?"}, {"role": "assistant", "content": "Sure! Mash 3 ripe bananas...  "}]\n\nQuestion Date: 2023/05/30 (Tue) 23:40\nQuestion: How many days passed between my first yoga class and the pottery workshop?\nExtracted note (information relevant to answering the question):',
    );
    const answer = requests[3]?.messages[0]?.content ?? '';
    // Sorted by date: the second haystack session (note 2) comes first.
    expect(answer).toContain(
      '### Session 1:\nSession Date: 2023/04/10 (Mon) 17:50\nSession Content:\n\n{"session_summary": "note 2 \\u00e9"}\n',
    );
    expect(answer).toContain(
      '### Session 3:\nSession Date: 2023/05/20 (Sat) 02:21\nSession Content:\n\n{"session_summary": "note 1 \\u00e9"}\n',
    );
    expect(result).toMatchObject({
      hypothesis: 'answer',
      noteCalls: 3,
      usage: { promptTokens: 40, completionTokens: 8 },
    });
    expect(reader.id).toBe('reader:gpt-4o:cot:json:notes');
  });

  it('refuses the nl history format, on which the official script fails', () => {
    expect(() =>
      createReader({
        client: fakeClient('x'),
        model: 'gpt-4o',
        prompt: 'cot',
        historyFormat: 'nl',
        notes: true,
      }),
    ).toThrow(/^Chain-of-Note \(--reader-notes\) needs --history-format json/);
  });

  it('names the known prompt styles for an unknown one', () => {
    expect(() =>
      createReader({ client: fakeClient('x'), model: 'gpt-4o', prompt: 'terse', historyFormat: 'json' }),
    ).toThrow(`Unknown reader prompt "terse"; known: ${Object.keys(readerPrompts()).join(', ')}.`);
    expect(Object.keys(readerPrompts())).toEqual(expect.arrayContaining(['direct', 'cot']));
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../core/retriever.js';
import type { SessionSummary } from '../core/summarizer.js';
import { sampleRecord, sampleTurnDocuments } from '../testing/sample-records.js';
import {
  contextPrompt,
  contextualizeChunks,
  createLlmContextualizer,
  createTemplateContextualizer,
} from './contextual-chunks.js';
import { createExtractiveSummarizer } from './extractive-summarizer.js';

const record = sampleRecord('71017276');

/** Every turn (both roles) of the haystack, as the `all` roles corpus builds them. */
const documents: MemoryDocument[] = sampleTurnDocuments(record, { roles: 'all' });
const answerSession = 'answer_0b4a8adc_1'; // 2023/03/04 (Sat) 22:43, 12 turns: the chandelier session
const inSession = (document: { sessionId: string }) => document.sessionId === answerSession;

let summaries: SessionSummary[];
let summary: SessionSummary;
beforeAll(async () => {
  summaries = await createExtractiveSummarizer().summarize({
    sessions: record.haystack_sessions.map((turns, session) => ({
      sessionId: record.haystack_session_ids[session]!,
      date: record.haystack_dates[session]!,
      turns,
    })),
  });
  summary = summaries.find((candidate) => candidate.sessionId === answerSession)!;
});

describe('contextualizeChunks with the template', () => {
  it('prefixes each turn with speaker, session day and the session topics', async () => {
    const session = documents.filter(inSession);
    const result = await contextualizeChunks({ documents: session, summaries, unit: 'turn' });
    expect(summary.topics.length).toBeGreaterThan(0);
    const topics = summary.topics.join(', ');
    expect(result.documents).toHaveLength(12);
    expect(result.documents[0]!.text).toBe(
      `[user · session 2023/03/04 (Sat) · topics: ${topics}]\n${session[0]!.text}`,
    );
    expect(
      result.documents[1]!.text.startsWith(`[assistant · session 2023/03/04 (Sat) · topics: ${topics}]\n`),
    ).toBe(true);
    expect(result.originals).toEqual(session.map((document) => document.text));
    expect(result.documents.map((document) => document.id)).toEqual(session.map((document) => document.id));
    expect(result.statuses.every((status) => status.status === 'ok')).toBe(true);
  });

  it('joins a user turn with the assistant reply in a round, under the user turn id', async () => {
    const session = documents.filter(inSession);
    const result = await contextualizeChunks({ documents: session, summaries, unit: 'round' });
    expect(result.documents).toHaveLength(6);
    expect(result.members[0]).toEqual([`${answerSession}_1`, `${answerSession}_2`]);
    expect(result.documents[0]).toMatchObject({ id: `${answerSession}_1`, turnIndex: 0, role: 'mixed' });
    expect(result.originals[0]).toBe(`${session[0]!.text}\n${session[1]!.text}`);
    expect(
      result.documents[0]!.text.startsWith('[user & assistant · session 2023/03/04 (Sat) · topics: '),
    ).toBe(true);
  });

  it('keeps a user turn alone when only user turns are indexed', async () => {
    const userTurns = documents.filter((document) => inSession(document) && document.role === 'user');
    const result = await contextualizeChunks({ documents: userTurns, summaries, unit: 'round' });
    expect(result.members).toEqual(userTurns.map((document) => [document.id]));
  });

  it('makes one chunk per session with the session id', async () => {
    const result = await contextualizeChunks({ documents, summaries, unit: 'session' });
    expect(result.documents).toHaveLength(record.haystack_session_ids.length);
    const chunk = result.documents.find((document) => document.id === answerSession)!;
    expect(chunk).toMatchObject({ sessionId: answerSession, role: 'mixed', date: '2023/03/04 (Sat) 22:43' });
    expect(chunk.turnIndex).toBeUndefined();
    expect(chunk.text).toContain('crystal chandelier');
  });

  it('leaves out the topics when a session has no summary', async () => {
    const context = await createTemplateContextualizer().contextualize({
      chunk: documents[0]!,
      sessionDocuments: [documents[0]!],
    });
    expect(context).toBe(`[user · session ${record.haystack_dates[0]!.slice(0, 16)}]`);
  });
});

describe('contextualizeChunks with an LLM', () => {
  it('puts the reply in front and keeps a failed chunk without context', async () => {
    const session = documents.filter((document) => inSession(document) && document.role === 'user');
    const prompts: string[] = [];
    const contextualizer = createLlmContextualizer({
      model: 'test-model',
      complete: async (prompt) => {
        prompts.push(prompt);
        if (prompt.includes(session[1]!.text.slice(0, 60)) && prompt.includes(`<chunk>\n${session[1]!.text}`))
          throw new Error('503 upstream unavailable');
        if (prompt.includes(`<chunk>\n${session[2]!.text}`)) return '   ';
        return '  The user asks about the history of a family heirloom.  ';
      },
    });
    expect(contextualizer.id).toBe('llm:test-model');
    const result = await contextualizeChunks({ documents: session, summaries, unit: 'turn', contextualizer });
    expect(prompts).toHaveLength(6);
    expect(result.statuses.map((status) => status.status)).toEqual([
      'ok',
      'failed',
      'failed',
      'ok',
      'ok',
      'ok',
    ]);
    expect(result.statuses[1]).toEqual({
      id: session[1]!.id,
      status: 'failed',
      error: '503 upstream unavailable',
    });
    expect(result.statuses[2]!.error).toBe('empty context reply');
    expect(result.documents[0]!.text).toBe(
      `The user asks about the history of a family heirloom.\n${session[0]!.text}`,
    );
    expect(result.documents[1]!.text).toBe(session[1]!.text);
    expect(result.originals).toEqual(session.map((document) => document.text));
  });

  it('shows the conversation around the chunk within the character budget', () => {
    const session = documents.filter(inSession);
    const chunk = session[6]!;
    const prompt = contextPrompt({ chunk, sessionDocuments: session }, 4000);
    expect(prompt).toContain(`<conversation date="2023/03/04 (Sat) 22:43">`);
    expect(prompt).toContain(`<chunk>\n${chunk.text}\n</chunk>`);
    expect(prompt).toContain(`user: ${chunk.text}`);
    expect(prompt).not.toContain(session[0]!.text); // too far from the chunk for 4000 characters
    expect(prompt.indexOf('</conversation>')).toBeLessThan(4000 + 200);
  });
});

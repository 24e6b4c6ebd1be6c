import { describe, expect, it } from 'vitest';
import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { sampleRecord } from '../testing/sample-records.js';
import { fusedPoolSize, multiRouteRecall, routePoolSize, sessionFirst } from './multi-route-recall.js';

describe('pool sizes', () => {
  it('takes max(K × 4, 32) fused and max(fused × 2, 40) per route', () => {
    expect([1, 5, 8, 10, 20].map(fusedPoolSize)).toEqual([32, 32, 32, 40, 80]);
    expect([1, 5, 8, 10, 20].map(routePoolSize)).toEqual([64, 64, 64, 80, 160]);
  });
});

const corpus = (size: number): MemoryDocument[] =>
  Array.from({ length: size }, (_, index) => ({ id: `d${index}`, text: '', sessionId: `s${index % 10}` }));

describe('multiRouteRecall', () => {
  it('fuses the route pools by RRF and keeps the fused pool', () => {
    const documents = corpus(200);
    // Route a ranks documents in corpus order, route b in reverse: d0 is first in a and last in b.
    const a = Float64Array.from(documents, (_, index) => 200 - index);
    const b = Float64Array.from(documents, (_, index) => index);
    const { hits, pools } = multiRouteRecall({
      routes: [
        { name: 'a', scores: a },
        { name: 'b', scores: b },
      ],
      documents,
      finalK: 5,
      k: 60,
    });
    expect(pools).toEqual({ route: 64, fused: 32, candidates: 128 });
    expect(hits).toHaveLength(32);
    // Each route's pool holds 64 documents and the two pools are disjoint: every candidate has one
    // vote, so the fused order interleaves the two routes' tops.
    expect(hits.slice(0, 4).map((hit) => hit.id)).toEqual(['d0', 'd199', 'd1', 'd198']);
    expect(hits[0]!.score).toBeCloseTo(1 / 61, 12);
    expect(hits[0]!.routes).toEqual({
      a: { score: 200, rank: 1 },
      b: { score: 0, rank: 200 },
      rrf: { score: 1 / 61, rank: 1 },
    });
  });

  it('adds the votes of every route whose pool holds the candidate', () => {
    const documents = corpus(100);
    const a = Float64Array.from(documents, (_, index) => 100 - index); // d0 first
    const b = Float64Array.from(documents, (_, index) => (index === 3 ? 1000 : 100 - index)); // d3 first
    const { hits } = multiRouteRecall({
      routes: [
        { name: 'a', scores: a },
        { name: 'b', scores: b },
      ],
      documents,
      finalK: 5,
      k: 10,
    });
    const d3 = hits.find((hit) => hit.id === 'd3')!;
    expect(d3.score).toBeCloseTo(1 / (10 + 4) + 1 / (10 + 1), 12);
    expect(hits[0]!.id).toBe('d0'); // 1/11 + 1/12 beats d3
    // Rank 65 and below in both routes: outside both pools, never a candidate.
    expect(hits.some((hit) => hit.routes['a']!.rank > 64 && hit.routes['b']!.rank > 64)).toBe(false);
  });

  it('fails naming a route of the wrong length', () => {
    expect(() =>
      multiRouteRecall({ routes: [{ name: 'dense', scores: [1, 2] }], documents: corpus(3), finalK: 5 }),
    ).toThrow(/route dense scored 2 documents, expected 3/);
  });

  it('recalls the evidence of a real question from BM25 over turns and over sessions (6d550036)', () => {
    const record = sampleRecord('6d550036');
    // One corpus of session documents (no turn index) and user turns.
    const documents: MemoryDocument[] = [];
    record.haystack_sessions.forEach((turns, session) => {
      const sessionId = record.haystack_session_ids[session]!;
      const user = turns.filter((turn) => turn.role === 'user');
      documents.push({ id: sessionId, text: user.map((turn) => turn.content).join(' '), sessionId });
      turns.forEach((turn, turnIndex) => {
        if (turn.role === 'user')
          documents.push({ id: `${sessionId}_${turnIndex + 1}`, text: turn.content, sessionId, turnIndex });
      });
    });
    const terms = wordsTokenizer.tokenize(record.question);
    // Each route covers its own level; the other documents score -Infinity (outside its pool).
    const levelScores = (level: (document: MemoryDocument) => boolean) => {
      const covered = documents.flatMap((document, index) => (level(document) ? [index] : []));
      const bm25 = createBm25Index(covered.map((index) => wordsTokenizer.tokenize(documents[index]!.text)));
      const scores = new Float64Array(documents.length).fill(Number.NEGATIVE_INFINITY);
      bm25.scores(terms).forEach((score, position) => {
        scores[covered[position]!] = score;
      });
      return scores;
    };
    const sessionBm25 = levelScores((document) => document.turnIndex === undefined);
    const turnBm25 = levelScores((document) => document.turnIndex !== undefined);
    const { hits } = multiRouteRecall({
      routes: [
        { name: 'session_bm25', scores: sessionBm25 },
        { name: 'turn_bm25', scores: turnBm25 },
      ],
      documents,
      finalK: 5,
    });
    expect(hits).toHaveLength(32);
    const sessions = sessionFirst({ fusedHits: hits, documents, limit: 5 });
    expect(sessions).toHaveLength(5);
    for (const session of sessions) {
      expect(session.id).toBe(session.sessionId);
      const support = session.routes['turn_support']!.score;
      expect(support).toBeLessThanOrEqual(0.12);
      expect(session.score).toBeCloseTo(session.routes['session_best']!.score + support, 12);
      if (session.routes['best_turn'])
        expect(support).toBeCloseTo(Math.min(0.12, 0.6 * session.routes['best_turn'].score), 12);
    }
    const recalled = sessions.filter((session) => record.answer_session_ids.includes(session.sessionId));
    expect(recalled.length).toBeGreaterThan(0);
  });
});

describe('sessionFirst', () => {
  const documents: MemoryDocument[] = [
    { id: 's1', text: '', sessionId: 's1' },
    { id: 's1_1', text: '', sessionId: 's1', turnIndex: 0 },
    { id: 's2', text: '', sessionId: 's2' },
    { id: 's2_3', text: '', sessionId: 's2', turnIndex: 2 },
    { id: 's3_1', text: '', sessionId: 's3', turnIndex: 0 },
  ];
  const hit = (document: number, score: number): RetrievalHit => ({
    document,
    id: documents[document]!.id,
    sessionId: documents[document]!.sessionId,
    score,
    routes: {},
  });

  it('scores a session by its best session-level score plus min(0.12, 0.6 × best turn RRF)', () => {
    const sessions = sessionFirst({
      fusedHits: [hit(0, 0.5), hit(3, 0.5), hit(2, 0.45), hit(1, 0.05), hit(4, 0.03)],
      documents,
    });
    expect(sessions.map((session) => [session.id, session.score])).toEqual([
      ['s2', 0.45 + 0.12], // support capped: 0.6 × 0.5 = 0.3 > 0.12
      ['s1', 0.5 + 0.6 * 0.05],
      ['s3', 0.6 * 0.03], // no session-level hit: support alone
    ]);
    expect(sessions[0]).toMatchObject({
      document: 2,
      routes: { session_best: { score: 0.45, rank: 2 }, turn_support: { score: 0.12, rank: 1 } },
    });
    expect(sessions[0]!.routes['best_turn']).toEqual({ score: 0.5, rank: 2 });
    expect(sessions[2]!.document).toBe(4); // points at its best turn
  });

  it('takes session-level scores from another stage by maximum and cuts to the limit', () => {
    const sessions = sessionFirst({
      fusedHits: [hit(0, 0.2), hit(4, 0.1)],
      documents,
      sessionScores: new Map([
        ['s3', 0.9],
        ['s1', 0.1],
      ]),
      limit: 1,
    });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.id).toBe('s3');
    expect(sessions[0]!.score).toBeCloseTo(0.9 + 0.06, 12);
  });
});

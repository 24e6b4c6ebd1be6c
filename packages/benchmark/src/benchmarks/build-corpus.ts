import type { MemoryDocument } from '@lme/search-core';
import type { Benchmark, KeyedGold } from './benchmark.js';
import { benchmarkOfRecord, defaultBenchmark } from './benchmark-registry.js';
import type { Corpus, CorpusOptions } from './corpus.js';
import type { LongMemEvalRecord } from './longmemeval-record.js';

export type { Convention, Corpus, CorpusOptions, Granularity, IndexRoles } from './corpus.js';

/**
 * Builds the documents of one haystack as the official `process_item_flat_index` does: a session
 * document is its (user) turns joined by one space; a turn document is one turn. With
 * `indexRoles: 'all'` assistant turns are indexed too. With `chunkUnit: 'round'` a user turn and
 * the assistant turn right after it are one document under the user turn's id (a lone turn stays
 * a turn document, a lone assistant turn only with `indexRoles: 'all'`). Each document's key under
 * the `official` convention comes from `benchmark` (`Benchmark.conventions.official`): the run's,
 * found once; without one, the record's (the default benchmark's for a record of none it knows).
 * Its evidence comes from the record.
 */
export function buildCorpus(
  record: LongMemEvalRecord,
  options: CorpusOptions,
  benchmark: Benchmark = benchmarkOfRecord(record) ?? defaultBenchmark(),
): Corpus {
  const rule = benchmark.conventions.official;
  const write = turnWriter(benchmark, options.turnForm);
  const documents: MemoryDocument[] = [];
  const officialIds: string[] = [];
  const evidence: boolean[] = [];
  const answerSessions = new Set(record.answer_session_ids);
  const indexed = (role: string) => options.indexRoles === 'all' || role === 'user';
  const rounds = options.chunkUnit === 'round';

  record.haystack_sessions.forEach((turns, sessionIndex) => {
    const sessionId = record.haystack_session_ids[sessionIndex]!;
    const date = record.haystack_dates[sessionIndex]!;
    if (options.granularity === 'session') {
      const kept = turns.filter((turn) => indexed(turn.role));
      documents.push({
        id: sessionId,
        text: kept.map((turn) => write(turn.content, turn.role)).join(' '),
        parts: kept.map((turn) => write(turn.content, turn.role)),
        sessionId,
        date,
        role: options.indexRoles === 'all' ? 'mixed' : 'user',
      });
      officialIds.push(rule ? rule.sessionKey(sessionId, turns) : sessionId);
      evidence.push(answerSessions.has(sessionId));
      return;
    }
    for (let turnIndex = 0; turnIndex < turns.length; turnIndex++) {
      const turn = turns[turnIndex]!;
      if (!indexed(turn.role)) continue;
      const reply = rounds && turn.role === 'user' ? turns[turnIndex + 1] : undefined;
      const id = `${sessionId}_${turnIndex + 1}`;
      officialIds.push(rule ? rule.turnKey(sessionId, turns, turnIndex) : id);
      if (reply?.role === 'assistant') {
        // A round: graded as its user turn (official), as evidence when either turn is.
        documents.push({
          id,
          text: `${write(turn.content, turn.role)}\n${write(reply.content, reply.role)}`,
          sessionId,
          date,
          turnIndex,
          role: 'mixed',
        });
        evidence.push(turn.has_answer === true || reply.has_answer === true);
        turnIndex++;
        continue;
      }
      documents.push({
        id,
        text: write(turn.content, turn.role),
        sessionId,
        date,
        turnIndex,
        role: turn.role,
      });
      evidence.push(turn.has_answer === true);
    }
  });
  return { documents, officialIds, ...(rule ? { officialRule: rule } : {}), evidence };
}

/**
 * The `official` gold rule the corpus was built with; a corpus of a benchmark without one fails
 * (a run refuses `--convention official` for it before its first question, never grading it 0).
 */
export function officialRuleOf(corpus: Corpus): KeyedGold {
  if (!corpus.officialRule)
    throw new Error(
      "The question's benchmark defines no official gold; grade it with --convention evidence.",
    );
  return corpus.officialRule;
}

/**
 * How a turn's content is written into the index: as held, or in the `--turn-form` its benchmark
 * names; a form the benchmark does not name is refused in one sentence.
 */
export function turnWriter(
  benchmark: Benchmark,
  name: string | undefined,
): (content: string, role: string) => string {
  if (name === undefined) return (content) => content;
  const form = benchmark.turnForms?.[name];
  if (!form) {
    const known = Object.keys(benchmark.turnForms ?? {});
    throw new Error(
      `--turn-form ${name}: the ${benchmark.name} benchmark names no such form (${known.length ? `it has ${known.join(', ')}` : 'it has none'}).`,
    );
  }
  return form.write;
}

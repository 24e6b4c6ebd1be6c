import type { ChatClient, ChatMessage, ChatUsage } from '@lme/search-core';
import type { BeamAbility } from './beam-abilities.js';
import { alignWithJudge, type EventOrderingScore, eventOrderingScore } from './beam-event-ordering.js';
import { BEAM_EQUIVALENCE_SYSTEM, BEAM_JUDGE_PROMPT, beamEquivalenceUser } from './beam-prompts.js';

/** The official judge model (`gpt_llm` in src/llm.py: gpt-4.1-mini, temperature 0). */
export const BEAM_JUDGE_MODEL = 'gpt-4.1-mini';

/** Python's `str.replace` (every occurrence, no `$` patterns). */
function replaceAll(text: string, target: string, value: string): string {
  return text.split(target).join(value);
}

/**
 * What the official code sends for one rubric item: `unified_llm_judge_base_prompt` with
 * `<rubric_item>` then `<llm_response>` replaced. `<question>` stays as written: the official code
 * does not fill it (reproduced as is, so a judge sees what BEAM's did).
 */
export function beamJudgePrompt(rubricItem: string, response: string): string {
  return replaceAll(replaceAll(BEAM_JUDGE_PROMPT, '<rubric_item>', rubricItem), '<llm_response>', response);
}

/**
 * `parse_json_response` (compute_metrics.py): a fenced block's JSON, else the whole reply, else the
 * first `{…}` or `[…]` (shortest). Where the official code then falls back to the json_repair
 * package, this reads a bare `"score": <number>`. undefined when nothing reads.
 */
export function parseBeamJudgeJson(reply: string): unknown {
  let text = reply.trim();
  if (text.startsWith('```')) {
    const fenced = /```(?:json)?\s*(\[[\s\S]*\]|\{[\s\S]*\})\s*```/.exec(text);
    if (fenced) text = fenced[1]!.trim();
  }
  try {
    return JSON.parse(text);
  } catch {}
  const part = /(\{[\s\S]*?\}|\[[\s\S]*?\])/.exec(text);
  if (part) {
    try {
      return JSON.parse(part[1]!);
    } catch {}
  }
  const bare = /"score"\s*:\s*"?(-?\d+(?:\.\d+)?)/.exec(text);
  return bare ? { score: Number(bare[1]) } : undefined;
}

/** One rubric item as judged. */
export type BeamRubricItem = {
  rubric: string;
  /** The judge's score as it wrote it (1.0, 0.5 or 0.0 by the prompt's scale); null when unreadable. */
  score: number | null;
  /** The item as the official code counts it: `int(score)` (0.5 counts 0), `float(score)` for event ordering. */
  official: number | null;
  reason?: string;
  reply: string;
};

/** Python's `int(value)` of a JSON value; null where Python raises. */
function pythonInt(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value);
  return null;
}

/** Python's `float(value)` of a JSON value; null where Python raises. */
function pythonFloat(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value))
    return Number(value);
  return null;
}

/** A judge reply read as one rubric item (see `BeamRubricItem`). */
export function readBeamJudgeReply(rubric: string, reply: string, ability: string): BeamRubricItem {
  const parsed = parseBeamJudgeJson(reply);
  const raw =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as { score?: unknown; reason?: unknown })
      : undefined;
  const asFloat = raw ? pythonFloat(raw.score) : null;
  const score = asFloat !== null && asFloat >= 0 && asFloat <= 1 ? asFloat : null;
  const official = raw
    ? ability === 'event_ordering'
      ? pythonFloat(raw.score)
      : pythonInt(raw.score)
    : null;
  return {
    rubric,
    score,
    official,
    ...(typeof raw?.reason === 'string' ? { reason: raw.reason } : {}),
    reply,
  };
}

/**
 * A question's rubric scores: `partialCredit` the mean of the items as the judge scored them (0.5
 * counts half, as the prompt's scale says); `llmJudgeScore` the official `llm_judge_score`, the sum
 * of the items as the official code counts them over the rubric's length (`int(0.5)` is 0 for every
 * ability but event ordering). null when an item did not read (the official run stops there).
 */
export function beamRubricScores(items: readonly BeamRubricItem[]): {
  partialCredit: number | null;
  llmJudgeScore: number | null;
} {
  if (items.length === 0) return { partialCredit: null, llmJudgeScore: null };
  const unreadable = items.some((item) => item.score === null || item.official === null);
  if (unreadable) return { partialCredit: null, llmJudgeScore: null };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    partialCredit: sum(items.map((item) => item.score!)) / items.length,
    llmJudgeScore: sum(items.map((item) => item.official!)) / items.length,
  };
}

export type BeamJudgement = {
  items: BeamRubricItem[];
  /** Mean item score with half credit (see beamRubricScores). */
  partialCredit: number | null;
  /** The official `llm_judge_score`. */
  llmJudgeScore: number | null;
  /** Event ordering only: the alignment-based figures, of which `tauNorm` is what report_results.py reports. */
  eventOrdering?: EventOrderingScore;
  /** The question's official figure, as report_results.py averages it: tau_norm for event ordering, else llm_judge_score. */
  official: number | null;
  error?: string;
  usage: ChatUsage;
  calls: number;
};

export type BeamJudgeOptions = {
  client: ChatClient;
  /** Default gpt-4.1-mini, the official judge. */
  model?: string;
  ability: BeamAbility | string;
  rubric: readonly string[];
  response: string;
  /** `max_tokens` of each call; the official client sends none, 1000 leaves room for the reason. */
  maxTokens?: number;
  signal?: AbortSignal;
};

/**
 * Grades one answer as BEAM's official evaluation does: one judge call per rubric item (a user
 * message, temperature 0); for event ordering, also the equivalence calls that align each line of
 * the answer with the rubric items (the official code's fact extraction call is skipped: its result
 * is overwritten by the answer's lines before use).
 */
export async function judgeBeamAnswer(options: BeamJudgeOptions): Promise<BeamJudgement> {
  const model = options.model ?? BEAM_JUDGE_MODEL;
  const usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
  let calls = 0;
  const ask = async (messages: ChatMessage[]) => {
    const result = await options.client.complete({
      model,
      messages,
      temperature: 0,
      maxTokens: options.maxTokens ?? 1000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    usage.promptTokens += result.usage.promptTokens;
    usage.completionTokens += result.usage.completionTokens;
    calls++;
    return result.text;
  };
  // The official order: the alignment calls (event ordering) before the rubric calls.
  let eventOrdering: EventOrderingScore | undefined;
  if (options.ability === 'event_ordering') {
    const system = await alignWithJudge(
      options.rubric,
      options.response.split('\n'),
      async (first, second) => {
        const reply = await ask([
          { role: 'system', content: BEAM_EQUIVALENCE_SYSTEM },
          { role: 'user', content: beamEquivalenceUser(first, second) },
        ]);
        return reply.toLowerCase().includes('yes');
      },
    );
    eventOrdering = eventOrderingScore(options.rubric, system);
  }
  const items: BeamRubricItem[] = [];
  for (const rubric of options.rubric) {
    const reply = await ask([{ role: 'user', content: beamJudgePrompt(rubric, options.response) }]);
    items.push(readBeamJudgeReply(rubric, reply, options.ability));
  }
  const { partialCredit, llmJudgeScore } = beamRubricScores(items);
  const official = options.ability === 'event_ordering' ? (eventOrdering?.tauNorm ?? null) : llmJudgeScore;
  const unreadable = items.filter((item) => item.score === null || item.official === null);
  const error =
    unreadable.length > 0
      ? `${unreadable.length} of ${items.length} judge replies did not read as {"score": …} (first: ${JSON.stringify(unreadable[0]!.reply.slice(0, 120))})`
      : official === null && options.ability === 'event_ordering'
        ? 'Kendall tau-b is undefined for this answer (fewer than two events, or one order all tied), as scipy gives NaN'
        : undefined;
  return {
    items,
    partialCredit,
    llmJudgeScore,
    ...(eventOrdering ? { eventOrdering } : {}),
    official,
    ...(error ? { error } : {}),
    usage,
    calls,
  };
}

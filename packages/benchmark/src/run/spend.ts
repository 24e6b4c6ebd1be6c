import type { Sample } from '../results/sample.js';

/** Tokens and USD of one LLM role over a run. */
export type RoleSpend = {
  calls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** USD of the calls not served from the cache; calls of unpriced models add nothing. */
  usd: number;
  unpricedCalls: number;
};

export type Spend = {
  byRole: Record<string, RoleSpend>;
  usd: number;
  /** The first question whose uncached call reported no token usage (its spend is unknown). */
  missingUsage?: string;
  /** Answers served from completion-cache entries another endpoint made, per endpoint (this session). */
  fromOtherEndpoints?: Record<string, number>;
};

/**
 * The LLM spend recorded in samples (reader and judge usage). A call the server answered without
 * `usage` is recorded with 0 prompt tokens: it is reported in `missingUsage`, since its cost is
 * unknown.
 */
export function spendOf(samples: readonly Sample[]): Spend {
  const spend: Spend = { byRole: {}, usd: 0 };
  for (const sample of samples) addSample(spend, sample);
  return spend;
}

export function addSample(spend: Spend, sample: Sample): void {
  for (const [role, usage] of Object.entries(sample.usage ?? {})) {
    const entry = spend.byRole[role] ?? {
      calls: 0,
      cachedCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      usd: 0,
      unpricedCalls: 0,
    };
    spend.byRole[role] = entry;
    entry.calls++;
    // A negative or non-numeric figure (a hostile server, an edited file) counts as no usage.
    const valid = (value: number | null) => value === null || (Number.isFinite(value) && value >= 0);
    const sound = valid(usage.prompt_tokens) && valid(usage.completion_tokens) && valid(usage.cost_usd);
    if (sound) {
      entry.promptTokens += usage.prompt_tokens;
      entry.completionTokens += usage.completion_tokens;
    }
    if (usage.cached) {
      entry.cachedCalls++;
      continue;
    }
    if ((!sound || usage.prompt_tokens === 0) && spend.missingUsage === undefined)
      spend.missingUsage = sample.question_id;
    if (!sound) continue;
    if (usage.cost_usd === null) entry.unpricedCalls++;
    else {
      entry.usd += usage.cost_usd;
      spend.usd += usage.cost_usd;
    }
  }
}

/** `spend: reader 1,234 + 56 tokens $0.0012 · judge … · total $0.0020 (3 cached calls free)`. */
export function formatSpend(spend: Spend): string | undefined {
  const roles = Object.entries(spend.byRole);
  if (roles.length === 0) return undefined;
  const number = (value: number) => value.toLocaleString('en-US');
  const parts = roles.map(
    ([role, entry]) =>
      `${role} ${number(entry.promptTokens)} prompt + ${number(entry.completionTokens)} completion tokens $${entry.usd.toFixed(4)}` +
      (entry.unpricedCalls > 0 ? ` (${entry.unpricedCalls} calls unpriced)` : ''),
  );
  const cached = roles.reduce((sum, [, entry]) => sum + entry.cachedCalls, 0);
  return (
    `spend: ${parts.join(' · ')} · total $${spend.usd.toFixed(4)}` +
    (cached > 0 ? ` (${cached} cached calls cost nothing)` : '') +
    Object.entries(spend.fromOtherEndpoints ?? {})
      .map(([endpoint, count]) => `; ${count} answers from the cache of ${endpoint}`)
      .join('') +
    (spend.missingUsage !== undefined
      ? `; the server reported no token usage (first: question ${spend.missingUsage}), so the total is too low`
      : '')
  );
}

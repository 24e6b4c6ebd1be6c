import { PROVIDER_INGEST_USAGE_ROLE, PROVIDER_USAGE_ROLE, type Sample } from '../../results/sample.js';

/** Tokens and USD of one LLM role over a run. */
export type RoleSpend = {
  calls: number;
  /**
   * HTTP requests the role's answers took, retries included (samples.jsonl `usage.<role>.requests`;
   * a folder written before lme counted them: one per answer not served from the cache).
   */
  requests: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** USD of the calls not served from the cache; calls of unpriced models add nothing. */
  usd: number;
  unpricedCalls: number;
};

export type Spend = {
  byRole: Record<string, RoleSpend>;
  /** USD of lme's own calls (reader, judge, reranker): what `--max-cost` counts. */
  usd: number;
  /**
   * What the provider reported spending on its own answers (`usage.provider`): tokens, and USD
   * over the answers it priced. Beside lme's spend, never in `usd`.
   */
  provider?: RoleSpend;
  /** What an external system reported spending on its ingests (`usage.provider_ingest`); never in `usd`. */
  providerIngest?: RoleSpend;
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
    if (role === PROVIDER_USAGE_ROLE) {
      spend.provider = addProviderUsage(spend.provider ?? emptyRoleSpend(), usage);
      continue;
    }
    if (role === PROVIDER_INGEST_USAGE_ROLE) {
      spend.providerIngest = addProviderUsage(spend.providerIngest ?? emptyRoleSpend(), usage);
      continue;
    }
    const entry = spend.byRole[role] ?? emptyRoleSpend();
    spend.byRole[role] = entry;
    entry.calls++;
    entry.requests += usage.requests ?? (usage.cached ? 0 : 1);
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

function emptyRoleSpend(): RoleSpend {
  return {
    calls: 0,
    requests: 0,
    cachedCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    usd: 0,
    unpricedCalls: 0,
  };
}

/** The provider's reported usage of one answer; figures that are not sound counts add nothing. */
function addProviderUsage(entry: RoleSpend, usage: Sample['usage'][string]): RoleSpend {
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  entry.calls++;
  entry.promptTokens += count(usage.prompt_tokens);
  entry.completionTokens += count(usage.completion_tokens);
  if (typeof usage.cost_usd === 'number' && Number.isFinite(usage.cost_usd) && usage.cost_usd >= 0) {
    entry.usd += usage.cost_usd;
  } else entry.unpricedCalls++;
  return entry;
}

/**
 * `spend: reader 20 requests, 1,234 prompt + 56 completion tokens $0.0012 · judge … · total $0.0020
 * (3 cached calls cost nothing)`: requests are those the server received, retries included.
 */
export function formatSpend(spend: Spend): string | undefined {
  const roles = Object.entries(spend.byRole);
  const provider =
    [
      spend.provider ? formatProviderSpend(spend.provider) : undefined,
      spend.providerIngest ? formatProviderSpend(spend.providerIngest, 'ingests') : undefined,
    ]
      .filter((line) => line !== undefined)
      .join('\n') || undefined;
  if (roles.length === 0) return provider;
  if (provider) return `${formatOwnSpend(spend, roles)}\n${provider}`;
  return formatOwnSpend(spend, roles);
}

/**
 * `provider (its own report): 1,234 prompt + 56 completion tokens over 20 answers, $0.0100 (3 answers unpriced)`.
 */
export function formatProviderSpend(entry: RoleSpend, what: 'answers' | 'ingests' = 'answers'): string {
  const number = (value: number) => value.toLocaleString('en-US');
  const priced = entry.calls - entry.unpricedCalls;
  return (
    `provider ${what === 'ingests' ? 'ingest ' : ''}(its own report, not in lme's total): ${number(entry.promptTokens)} prompt + ${number(entry.completionTokens)} completion tokens over ${number(entry.calls)} ${what}` +
    (priced > 0 ? `, $${entry.usd.toFixed(4)}` : ', no cost reported') +
    (priced > 0 && entry.unpricedCalls > 0 ? ` (${entry.unpricedCalls} ${what} reported no cost)` : '')
  );
}

function formatOwnSpend(spend: Spend, roles: [string, RoleSpend][]): string {
  const number = (value: number) => value.toLocaleString('en-US');
  const parts = roles.map(
    ([role, entry]) =>
      `${role} ${number(entry.requests)} request${entry.requests === 1 ? '' : 's'}, ${number(entry.promptTokens)} prompt + ${number(entry.completionTokens)} completion tokens $${entry.usd.toFixed(4)}` +
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

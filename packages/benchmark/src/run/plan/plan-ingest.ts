import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { RetrievalSection } from '../../config/sections/retrieval-section.js';
import { haystackKey, sentSessions } from '../../providers/external/sent-haystack.js';
import { parseProviderOptions, providerNamed } from '../../providers/provider-registry.js';

/** What an external system would be sent: the ingests (one per distinct haystack), their sessions and turns. */
export type IngestPlan = { ingests: number; sessions: number; turns: number; roles: string; fresh: boolean };

/**
 * The ingests of a run on an external system, counted as the external provider makes them: one per
 * distinct haystack as sent (or one per question when the system starts fresh for each: its
 * `freshPerQuestion` capability or a `fresh-per-question` option). Undefined for lme's own providers.
 */
export function planIngest(
  config: Pick<ProviderSection, 'provider' | 'providerOptions'> & Pick<RetrievalSection, 'indexRoles'>,
  records: readonly LongMemEvalRecord[],
): IngestPlan | undefined {
  const descriptor = providerNamed(config.provider);
  if (!descriptor.capabilities.external) return undefined;
  const options = parseProviderOptions(descriptor, config.providerOptions);
  const fresh = descriptor.capabilities.freshPerQuestion === true || options['fresh-per-question'] === true;
  const seen = new Set<string>();
  const plan: IngestPlan = { ingests: 0, sessions: 0, turns: 0, roles: config.indexRoles, fresh };
  for (const record of records) {
    const sessions = sentSessions(record, config.indexRoles);
    const key = haystackKey(sessions);
    if (!fresh && seen.has(key)) continue;
    seen.add(key);
    plan.ingests++;
    plan.sessions += sessions.length;
    plan.turns += sessions.reduce((sum, session) => sum + session.turns.length, 0);
  }
  return plan;
}

/** `lme run --dry-run`'s line: `ingests: 1 for 10 questions (35 sessions, 419 turns sent, every role)`. */
export function renderIngestPlan(plan: IngestPlan, questions: number): string {
  return `ingests into the external system: ${plan.ingests} for ${questions} questions (${plan.sessions.toLocaleString('en-US')} sessions, ${plan.turns.toLocaleString('en-US')} turns sent, ${plan.roles === 'all' ? 'every role' : 'user turns only'}${plan.fresh ? '; a fresh namespace per question' : '; one per distinct haystack'})`;
}

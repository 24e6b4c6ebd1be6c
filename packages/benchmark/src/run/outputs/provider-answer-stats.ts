import { PROVIDER_USAGE_ROLE, type Sample } from '../../results/sample.js';
import { spendOf } from '../checks/spend.js';
import { percentile } from './aggregate-metrics.js';

/** Quantiles of a set of latencies, in milliseconds, over `n` questions. */
export type LatencyQuantiles = { n: number; p50: number; p95: number };

/**
 * What a provider that answers questions itself did over a run, beside lme's judge: how many
 * questions it answered (and left unanswered), its own latency and token usage as it reported
 * them, and the judge's latency over the same questions. Written to config.json's
 * `provider_stats.answers` and printed after the run.
 */
export type ProviderAnswerStats = {
  /** Questions whose hypothesis is the provider's own answer (non-empty). */
  answered: number;
  /** Questions the provider answered with nothing (missing or empty `answer`). */
  unanswered: number;
  /** The provider's own `latency_ms`, over the answers that carried one. */
  latency_ms?: LatencyQuantiles;
  /** lme's judge calls on the provider's answers (made this run; cached ones took no time). */
  judge_latency_ms?: LatencyQuantiles;
  /** The provider's own token usage; `cost_usd` over the answers that reported a cost. */
  usage?: { answers: number; prompt_tokens: number; completion_tokens: number; cost_usd: number | null };
};

function quantiles(values: readonly number[]): LatencyQuantiles | undefined {
  if (values.length === 0) return undefined;
  return { n: values.length, p50: percentile(values, 0.5), p95: percentile(values, 0.95) };
}

/**
 * The provider's answering figures from a run's samples, or undefined when it answered nothing
 * and reported nothing (a provider that only ranks).
 */
export function providerAnswerStats(samples: readonly Sample[]): ProviderAnswerStats | undefined {
  const own = samples.filter(
    (sample) =>
      sample.answer_source === 'provider' ||
      sample.latency_ms.answer !== undefined ||
      sample.usage?.[PROVIDER_USAGE_ROLE] !== undefined,
  );
  if (own.length === 0) return undefined;
  const answered = own.filter(
    (sample) => sample.answer_source === 'provider' && (sample.hypothesis ?? '').trim() !== '',
  );
  const provider = spendOf(own).provider;
  const latency = quantiles(own.flatMap((sample) => sample.latency_ms.answer ?? []));
  const judgeLatency = quantiles(
    answered.flatMap((sample) =>
      sample.usage?.judge && !sample.usage.judge.cached && sample.latency_ms.judge !== undefined
        ? [sample.latency_ms.judge]
        : [],
    ),
  );
  return {
    answered: answered.length,
    unanswered: own.filter((sample) => sample.answer_source === 'provider').length - answered.length,
    ...(latency ? { latency_ms: latency } : {}),
    ...(judgeLatency ? { judge_latency_ms: judgeLatency } : {}),
    ...(provider
      ? {
          usage: {
            answers: provider.calls,
            prompt_tokens: provider.promptTokens,
            completion_tokens: provider.completionTokens,
            cost_usd: provider.calls > provider.unpricedCalls ? provider.usd : null,
          },
        }
      : {}),
  };
}

/**
 * `latency: provider's own answers p50 812 ms, p95 1,930 ms over 20 · lme's judge p50 …`: one line
 * for the end of a run, or undefined when the provider reported no latency and the judge made no call.
 */
export function formatAnswerLatency(stats: ProviderAnswerStats): string | undefined {
  const part = (label: string, quantile: LatencyQuantiles | undefined) =>
    quantile
      ? `${label} p50 ${Math.round(quantile.p50).toLocaleString('en-US')} ms, p95 ${Math.round(quantile.p95).toLocaleString('en-US')} ms over ${quantile.n}`
      : undefined;
  const parts = [
    part("provider's own answer time (its report)", stats.latency_ms),
    part("lme's judge", stats.judge_latency_ms),
  ].filter((text): text is string => text !== undefined);
  return parts.length > 0 ? `latency: ${parts.join(' · ')}` : undefined;
}

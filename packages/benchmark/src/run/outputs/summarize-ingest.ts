import type { IngestSummary } from '../../results/ingest-summary.js';
import { PROVIDER_INGEST_USAGE_ROLE, type Sample } from '../../results/sample.js';
import { percentile } from './percentile.js';

/** Finished questions whose provider ingested (or shared) a haystack. */
const ingested = (sample: Sample) => sample.error === null && sample.latency_ms.ingest !== undefined;

/** The questions charged with an ingest (not those that searched a shared namespace). */
export function chargedIngests(samples: readonly Sample[]): Sample[] {
  return samples.filter((sample) => ingested(sample) && sample.ingest_shared !== true);
}

/** summary.json `ingest`, or undefined when no question's provider ingested anything (lme's own providers). */
export function summarizeIngest(samples: readonly Sample[]): IngestSummary | undefined {
  const charged = chargedIngests(samples);
  if (charged.length === 0) return undefined;
  const times = charged.map((sample) => sample.latency_ms.ingest!);
  const searches = samples.filter(ingested).map((sample) => sample.latency_ms.retrieve);
  const reported = charged.flatMap((sample) => {
    const usage = sample.usage[PROVIDER_INGEST_USAGE_ROLE];
    return usage ? [usage] : [];
  });
  const summary: IngestSummary = {
    ingests: charged.length,
    shared: samples.filter((sample) => ingested(sample) && sample.ingest_shared === true).length,
    ms_p50: round(percentile(times, 0.5)),
    ms_p95: round(percentile(times, 0.95)),
    ms_total: round(times.reduce((sum, time) => sum + time, 0)),
    search_ms_p50: round(percentile(searches, 0.5)),
    search_ms_p95: round(percentile(searches, 0.95)),
  };
  if (reported.length > 0) {
    const priced = reported.filter((usage) => usage.cost_usd !== null);
    summary.usage = {
      ingests: reported.length,
      prompt_tokens: reported.reduce((sum, usage) => sum + usage.prompt_tokens, 0),
      completion_tokens: reported.reduce((sum, usage) => sum + usage.completion_tokens, 0),
      cost_usd: priced.length > 0 ? priced.reduce((sum, usage) => sum + usage.cost_usd!, 0) : null,
    };
  }
  return summary;
}

/** report.md's line: `ingest: 1 ingest for 10 questions (9 shared) · p50 120 ms · p95 120 ms · search p50 3 ms · p95 5 ms`. */
export function renderIngestLine(summary: IngestSummary): string {
  const tokens = summary.usage
    ? ` · ${summary.usage.prompt_tokens.toLocaleString('en-US')} prompt + ${summary.usage.completion_tokens.toLocaleString('en-US')} completion tokens reported${summary.usage.cost_usd === null ? '' : `, $${summary.usage.cost_usd.toFixed(4)}`}`
    : '';
  const questions = summary.ingests + summary.shared;
  return `ingest: ${summary.ingests} ${summary.ingests === 1 ? 'ingest' : 'ingests'} for ${questions} ${questions === 1 ? 'question' : 'questions'} (${summary.shared} shared a haystack ingested before) · p50 ${summary.ms_p50} ms · p95 ${summary.ms_p95} ms · total ${summary.ms_total} ms · search p50 ${summary.search_ms_p50} ms · p95 ${summary.search_ms_p95} ms${tokens}`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

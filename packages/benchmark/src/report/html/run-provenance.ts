import type { Run } from '../../analysis/read-run.js';
import { describeErrata, runLabel } from '../../analysis/run-label.js';
import { selectedStages, stagesProvenance } from '../../components/stages/stage-registry.js';
import {
  fusesRoutes,
  retrieverStages,
  selectedRetriever,
  takesRoutes,
} from '../../config/retriever-rules.js';
import { BM25_FEEDBACK_WEIGHT } from '../../config/run-config.js';
import { groupConfig } from '../../config/run-sections.js';
import { pipelineEmbeds } from '../../config/run-shape.js';
import { knownProviderCapabilities } from '../../providers/provider-registry.js';
import { describeProvider } from '../../results/provider-identity.js';
import type { Summary } from '../../results/summary.js';

/** Where a run came from, as the report's header shows it. */
export type RunProvenance = {
  run_id: string;
  dir: string;
  dataset: string;
  dataset_path: string;
  dataset_sha256: string | null;
  convention: string;
  exclusion: string | null;
  granularity: string;
  /** The pipeline's retriever, or the provider: `http lme serve 0.1.0 at http://127.0.0.1:8787`. */
  retriever: string;
  /** An external system's name, version and URL (config.json `provider`), else null. */
  provider: string | null;
  stages: string[];
  embedder: string | null;
  reader: string | null;
  git_commit: string | null;
  git_dirty: boolean | null;
  started_at: string | null;
  finished_at: string | null;
  seconds: number | null;
  cost_usd: number | null;
  n: number;
  errors: number;
  /** The errata the run applied, or `none (official labels)`. */
  errata: string;
  /** An external system's ingests (summary.json `ingest`): `1 ingest (9 shared) · p50 120 ms · p95 120 ms`, else null. */
  ingest: string | null;
};

/** The stages a run's config turns on, in pipeline order. */
export function runStages(config: Run['config']['config']): string[] {
  // The stages at index time first (components/stages/: their `provenance`).
  const selected = selectedStages(config);
  const stages = stagesProvenance(selected, 'index');
  if (config.feedbackDocs > 0)
    stages.push(`dense feedback (${config.feedbackDocs} docs, weight ${config.feedbackWeight})`);
  if (config.bm25FeedbackDocs)
    stages.push(
      `BM25 feedback (${config.bm25FeedbackDocs} docs, weight ${config.bm25FeedbackWeight ?? BM25_FEEDBACK_WEIGHT}${config.bm25FeedbackKeep ? ', kept first' : ''})`,
    );
  // The base retriever's own stages (its descriptor's `stages`).
  stages.push(...retrieverStages(selectedRetriever(config)));
  // Then the stages after retrieval, in the order they ran (components/stages/: their `provenance`).
  stages.push(...stagesProvenance(selected));
  return stages;
}

function usesEmbeddings(config: Run['config']['config']): boolean {
  return pipelineEmbeds(groupConfig(config)) || config.feedbackDocs > 0;
}

export function describeRun(run: Run, summary: Summary): RunProvenance {
  const { config, provenance, dataset } = run.config;
  const started = provenance?.started_at ?? null;
  const finished = run.config.finished_at ?? null;
  const seconds =
    started && finished ? Math.round((Date.parse(finished) - Date.parse(started)) / 100) / 10 : null;
  let cost: number | null = null;
  for (const sample of run.samples) {
    for (const usage of Object.values(sample.usage ?? {})) {
      if (typeof usage.cost_usd === 'number') cost = (cost ?? 0) + usage.cost_usd;
    }
  }
  const retriever =
    // A run stored before --provider existed measured the pipeline.
    config.provider === undefined || knownProviderCapabilities(String(config.provider))?.pipeline === true
      ? `${config.retriever}${takesRoutes(config) ? ` over ${config.routes ?? 'hybrid'}` : ''}${fusesRoutes(config) ? ` (${config.fusion === 'rrf' ? `rrf k=${config.rrfK}` : `weighted ${config.weights.join('/')}`})` : ''}`
      : `${String(config.provider)}${run.config.provider?.url ? ` ${describeProvider(run.config.provider)}` : ''}`;
  return {
    run_id: run.config.run_id,
    dir: run.dir,
    dataset: config.dataset,
    dataset_path: dataset?.path ?? '',
    dataset_sha256: dataset?.sha256 ?? null,
    convention: config.convention,
    exclusion: config.convention === 'official' ? config.exclusion : null,
    granularity: config.granularity,
    retriever,
    provider: run.config.provider?.url ? describeProvider(run.config.provider) : null,
    stages: runStages(config),
    embedder: usesEmbeddings(config) ? config.embedder : null,
    // Who answered: lme's reader model, or the provider itself (--answers provider).
    reader: config.readerModel ?? (config.answers === 'provider' ? 'provider (its own answers)' : null),
    git_commit: provenance?.git?.commit ?? null,
    git_dirty: provenance?.git?.dirty ?? null,
    started_at: started,
    finished_at: finished,
    seconds,
    cost_usd: cost === null ? null : Math.round(cost * 10000) / 10000,
    n: summary.n,
    errors: summary.errors,
    errata: describeErrata(runLabel(run)),
    ingest: summary.ingest
      ? `${summary.ingest.ingests} ${summary.ingest.ingests === 1 ? 'ingest' : 'ingests'} (${summary.ingest.shared} shared) · p50 ${summary.ingest.ms_p50} ms · p95 ${summary.ingest.ms_p95} ms`
      : null,
  };
}

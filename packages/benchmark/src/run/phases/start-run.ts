import { resolve } from 'node:path';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { Provider } from '../../providers/provider.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { describeProvider } from '../../results/provider-identity.js';
import { checkServers } from '../checks/check-servers.js';
import { claimRunFolder } from '../files/run-folder.js';
import type { RunManifest } from '../outputs/run-manifest.js';
import type { RunContext } from '../run-context.js';
import { defaultRunId } from '../run-id.js';
import { openQuestionSource, type QuestionSource } from '../selection/question-source.js';
import { createQaStage, type QaStage } from './qa-stage.js';
import { startManifest } from './start-manifest.js';

/** A run whose servers answered and whose folder is claimed, before its first question. */
export type StartedRun = {
  dir: string;
  manifest: RunManifest;
  qa: QaStage | undefined;
  source: QuestionSource;
};

/**
 * The second phase: every server answers (or the run stops in seconds naming it), the run id is
 * settled, config.json's manifest made, the QA stage and the question source opened, and only
 * then the run folder claimed (`run.claim`); the notices of the start are told.
 */
export async function startRun(run: RunContext, provider: Provider): Promise<StartedRun> {
  const { sections, hooks, signal, resume, dependencies } = run;
  const { data, retrieval } = sections;
  // Interrupted while checking: the loop stops before the first question, as interrupted.
  await checkServers({
    sections,
    provider,
    environment: dependencies.environment,
    signal,
  }).catch((error: unknown) => {
    if (!signal?.aborted) throw error;
  });
  const identity = provider.identity?.();
  const named = { ...data, ...retrieval, preset: sections.run.preset, provider: sections.provider.provider };
  run.runId = run.givenRunId ?? defaultRunId(named, new Date(), identity ? { provider: identity } : {});
  const dir = resume?.dir ?? resolve(sections.run.out, run.runId);
  const manifest = await startManifest(run);
  if (identity) {
    const before = manifest.provider;
    if (resume && before && describeProvider(before) !== describeProvider(identity))
      hooks.onNotice?.(
        `The provider now reports itself as ${describeProvider(identity)} (the run began with ${describeProvider(before)}); config.json records the new one.`,
      );
    manifest.provider = identity;
  }
  const { cache, cacheDir } = sections.run;
  const qa = await createQaStage(
    { ...sections.qa, cache, cacheDir, convention: data.convention, granularity: retrieval.granularity },
    dependencies.environment,
    (message) => hooks.onWarning?.(message),
    run.benchmark,
  );
  const source = await openQuestionSource(run.datasetPath, data, dependencies.dataset, undefined, (message) =>
    hooks.onWarning?.(message),
  );
  run.claim = claimRunFolder(dir, { mode: resume ? 'resume' : 'new', overwrite: sections.run.overwrite });
  hooks.onRunStart?.({ dir, runId: run.runId });
  if (resume)
    hooks.onResume?.({
      dir,
      finished: run.previous.length,
      droppedTornLine: resume.droppedTornLine,
      retrying: resume.retrying,
    });
  if (resume?.mixedChanges)
    hooks.onWarning?.(
      `continuing ${dir} under another setup (${resume.mixedChanges.join('; ')}): the run is recorded as mixed (--resume-mixed).`,
    );
  if (run.errata.warning) hooks.onNotice?.(run.errata.warning);
  if (!qa) hooks.onNotice?.(qaSkippedNotice(sections.provider));
  return { dir, manifest, qa, source };
}

function qaSkippedNotice({ provider }: Pick<ProviderSection, 'provider'>): string {
  const capabilities = providerCapabilities(provider);
  return capabilities.answersItself
    ? "QA skipped: set --answers provider to judge the system's own answers, or --reader-model to answer from its hits (with OPENAI_BASE_URL / OPENAI_API_KEY)."
    : capabilities.ranks
      ? 'QA skipped: set --reader-model (with OPENAI_BASE_URL / OPENAI_API_KEY) to measure answer accuracy.'
      : `--provider ${provider} only feeds the reader: set --reader-model to measure answer accuracy.`;
}

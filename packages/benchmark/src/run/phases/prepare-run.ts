import type { Benchmark } from '../../benchmarks/benchmark.js';
import { benchmarkNamed } from '../../benchmarks/benchmark-registry.js';
import { turnWriter } from '../../benchmarks/build-corpus.js';
import { resolveDatasetPath } from '../../benchmarks/dataset-path.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { datasetSourceOf, resolveRunSettings } from '../../config/run-sections.js';
import type { DataSection } from '../../config/sections/data-section.js';
import { createErrataApplier } from '../../errata/apply-errata.js';
import { checkErrataDataset } from '../../errata/check-errata-dataset.js';
import { loadErrata } from '../../errata/load-errata.js';
import { benchmarkOfDataset, settleBenchmarkDefaults } from '../benchmark-defaults.js';
import { preflightRun } from '../checks/preflight.js';
import { prepareResume } from '../outputs/run-manifest.js';
import type { PreparedErrata, RunContext, RunDependencies } from '../run-context.js';
import { checkRunId } from '../run-id.js';
import { checkDataset, validatesFirst } from '../selection/question-source.js';

/**
 * The first phase of a run, before any server is asked or any folder claimed: the requested config
 * resolved once with its benchmark's defaults, preflight, the dataset checked against the
 * selection, the errata checked against the dataset, and a resumed run's folder read and compared.
 */
export async function prepareRun(
  requested: RunConfigInput,
  dependencies: RunDependencies,
): Promise<RunContext> {
  const source = datasetSourceOf(requested);
  const datasetPath = resolveDatasetPath(source.dataset, source.dataDir);
  // The judge and reader prompt the dataset's benchmark publishes, where the config sets none.
  // Found once per run: the caller's (the CLI found it to layer its setting), else from the dataset.
  const benchmark =
    dependencies.benchmark ??
    (dependencies.dataset
      ? benchmarkNamed(dependencies.dataset.format)
      : await benchmarkOfDataset(datasetPath));
  const { config, sections } = resolveRunSettings(settleBenchmarkDefaults(requested, benchmark));
  // A --turn-form the dataset's benchmark does not name is refused before the first question.
  if (benchmark) turnWriter(benchmark, sections.retrieval.turnForm);
  const argv = [...(dependencies.argv ?? process.argv.slice(2))];
  if (sections.run.runId !== undefined) checkRunId(sections.run.runId);
  await preflightRun({
    sections,
    datasetPath,
    environment: dependencies.environment,
    datasetInMemory: dependencies.dataset !== undefined,
  });
  await checkDataset(datasetPath, sections.data, dependencies.dataset?.records, validatesFirst(sections));
  const errata = await prepareErrata(sections.data, datasetPath, benchmark);
  const resume = dependencies.resume
    ? await prepareResume({ ...dependencies.resume, config, datasetPath, argv })
    : undefined;
  const givenRunId = resume?.manifest.run_id ?? sections.run.runId;
  return {
    config,
    sections,
    benchmark,
    datasetPath,
    argv,
    hooks: dependencies.hooks ?? {},
    signal: dependencies.signal,
    dependencies,
    errata,
    resume,
    previous: resume?.previous ?? [],
    givenRunId,
    // The default run id names an external system as its health reply does: known after preflight.
    runId: givenRunId ?? '',
    counts: { written: 0 },
  };
}

async function prepareErrata(
  data: DataSection,
  datasetPath: string,
  benchmark: Benchmark | undefined,
): Promise<PreparedErrata> {
  if (data.errata === undefined) return { apply: (record) => ({ record }) };
  const errata = loadErrata(data.errata);
  const check = await checkErrataDataset(errata, datasetPath, data.errataAnyChecksum === true);
  return {
    apply: createErrataApplier(errata, { skipMismatches: check.warning !== undefined, benchmark }),
    recorded: {
      name: errata.name,
      version: errata.version,
      path: errata.path,
      file_sha256: errata.file_sha256,
      dataset_sha256: check.sha256,
      entries: errata.entries.length,
      ...(check.warning ? { checksum_override: true } : {}),
    },
    ...(check.warning ? { warning: check.warning } : {}),
  };
}

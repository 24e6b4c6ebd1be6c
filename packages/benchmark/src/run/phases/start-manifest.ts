import { recordedConfig } from '../../config/recorded-config.js';
import {
  parseProviderOptions,
  providerCapabilities,
  providerNamed,
} from '../../providers/provider-registry.js';
import { datasetFileSha256 } from '../checks/dataset-checksum.js';
import { collectProvenance } from '../outputs/provenance.js';
import { type RunManifest, resultSettings } from '../outputs/run-manifest.js';
import { currentSetup } from '../outputs/run-setup.js';
import type { RunContext } from '../run-context.js';

/** The manifest config.json starts with: a new run's, or the resumed run's, neither partial nor finished. */
export async function startManifest(run: RunContext): Promise<RunManifest> {
  const { config, runId, datasetPath, resume, errata } = run;
  // The options of the components the run selected, not every component's (recorded-config.ts).
  const { overwrite: _overwrite, ...recorded } = recordedConfig(
    config,
    providerCapabilities(config.provider),
  );
  const manifest: RunManifest = resume?.manifest ?? {
    run_id: runId,
    config: { ...recorded, runId },
    provenance: collectProvenance([...run.argv]),
    dataset: { path: datasetPath, sha256: null, file_sha256: await datasetFileSha256(datasetPath) },
    setup: currentSetup(resultSettings(config)),
  };
  if (errata.recorded) manifest.errata = errata.recorded;
  const { provider, providerOptions } = run.sections.provider;
  const parsedOptions = parseProviderOptions(providerNamed(provider), providerOptions);
  if (providerOptions !== undefined && Object.keys(parsedOptions).length > 0) {
    manifest.provider_options = parsedOptions;
  }
  // A resumed run is partial again only if it stops again.
  delete manifest.partial;
  delete manifest.finished_at;
  delete manifest.cache;
  delete manifest.fingerprint;
  return manifest;
}

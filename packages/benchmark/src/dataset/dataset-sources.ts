import { resolve } from 'node:path';
import { z } from 'zod';
import { readJsonConfig } from '../config/read-json-config.js';

/** The checked-in list of official files: configs/datasets.json. */
export const DATASET_SOURCES_PATH = resolve(import.meta.dirname, '../../../../configs/datasets.json');

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, { error: 'is not a lower-case hex SHA-256' });

const DatasetSourcesSchema = z.object({
  description: z.string().optional(),
  hubUrl: z.url(),
  repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  license: z.string().optional(),
  /** A commit hash pins the bytes; `main` (only when no commit is known) does not. */
  revision: z.string().min(1),
  /** Where the revision, sizes and checksums come from. */
  source: z.string().min(1),
  files: z.record(
    z.string(),
    z.object({
      file: z.string().regex(/^[\w.-]+$/),
      /** null: unknown. */
      bytes: z.number().int().positive().nullable(),
      /** null: unknown; a download is then kept but reported as unverified. */
      sha256: sha256.nullable(),
      questions: z.number().int().positive().optional(),
    }),
  ),
  /** Other copies whose records match a published file but whose bytes do not (rebuilt files). */
  knownCopies: z
    .array(
      z.object({
        dataset: z.string(),
        sha256,
        bytes: z.number().int().positive().optional(),
        questions: z.number().int().positive().optional(),
        note: z.string(),
      }),
    )
    .default([]),
});

export type DatasetSources = z.infer<typeof DatasetSourcesSchema>;
export type DatasetSource = DatasetSources['files'][string];

/** Reads and checks configs/datasets.json (or another file in its format). */
export function loadDatasetSources(path: string = DATASET_SOURCES_PATH): DatasetSources {
  return readJsonConfig(path, DatasetSourcesSchema);
}

/** The source of a downloadable dataset name, or an error listing the names there are. */
export function datasetSource(sources: DatasetSources, name: string): DatasetSource {
  const source = sources.files[name];
  if (!source) {
    throw new Error(
      `Unknown dataset "${name}"; the downloadable ones are ${Object.keys(sources.files).join(', ')}.`,
    );
  }
  return source;
}

/** `<hub>/datasets/<repository>/resolve/<revision>/<file>`, the hub's download address. */
export function datasetUrl(sources: DatasetSources, name: string, hubUrl: string = sources.hubUrl): string {
  const { file } = datasetSource(sources, name);
  const base = hubUrl.replace(/\/+$/, '');
  return `${base}/datasets/${sources.repository}/resolve/${encodeURIComponent(sources.revision)}/${file}`;
}

export type DigestMatch =
  | { kind: 'published'; dataset: string; source: DatasetSource }
  | { kind: 'copy'; dataset: string; questions?: number; note: string };

/** What a SHA-256 of uncompressed JSON is known as: a published file, a known copy, or nothing. */
export function identifyDigest(sources: DatasetSources, digest: string): DigestMatch | undefined {
  for (const [dataset, source] of Object.entries(sources.files)) {
    if (source.sha256 === digest) return { kind: 'published', dataset, source };
  }
  const copy = sources.knownCopies.find((candidate) => candidate.sha256 === digest);
  return copy && { kind: 'copy', dataset: copy.dataset, questions: copy.questions, note: copy.note };
}

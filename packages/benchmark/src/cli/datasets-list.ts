import type { DatasetVerifyResult as VerifyResult } from '../benchmarks/benchmark.js';
import { benchmarks, publishedDatasetFiles } from '../benchmarks/benchmark-registry.js';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import type { DatasetSources } from '../dataset/dataset-sources.js';

/** What `--dataset <name>` holds, one phrase per known name (configs/datasets.json names the files). */
const WHAT: Readonly<Record<string, string>> = {
  sample: '22 real S questions (3 per type + 4 abstention), committed',
  oracle: 'only the evidence sessions of each question',
  s: 'about 50 sessions (115k tokens) per question',
  m: 'about 500 sessions per question',
};

const STATUS_TEXT: Record<VerifyResult['status'], string> = {
  verified: 'verified: the published file',
  'known-copy': 'verified: a known rebuilt copy',
  unverified: 'present, no checksum to check',
  mismatch: 'MISMATCH: not the published file',
  missing: 'not downloaded',
};

/** One known dataset as `lme datasets list` shows it; `get` says how to get it when it is not here whole. */
export type DatasetListing = {
  name: string;
  what: string;
  questions: string;
  status: string;
  path: string;
  get?: string;
};

const CATALOG_STATUS = {
  present: 'present (not checked)',
  incomplete: 'INCOMPLETE',
  missing: 'not downloaded',
} as const;

/**
 * `lme datasets list`: every dataset lme knows, from the benchmark registry: the committed sample
 * and the files of configs/datasets.json (what each is, where it is in the data dir with its
 * SHA-256 checked, a known rebuilt copy counting its own questions; with `verify` false, only
 * whether the file is there), then every benchmark's catalog (BEAM's tiers, LoCoMo, LoCoMo-Plus),
 * downloaded or not, each not here whole with how to get it.
 */
export async function listDatasets(
  sources: DatasetSources,
  dataDir: string,
  verify: boolean,
): Promise<DatasetListing[]> {
  const names = Object.keys(sources.files);
  const published = publishedDatasetFiles();
  const verified = verify ? await published.verify(sources, names, dataDir) : [];
  const listings: DatasetListing[] = [
    {
      name: 'sample',
      what: WHAT.sample!,
      questions: '22',
      status: 'always here',
      path: published.committedSample,
    },
  ];
  for (const name of names) {
    const source = sources.files[name]!;
    const what = WHAT[name] ? `${WHAT[name]} (${source.file})` : source.file;
    const questions = String(source.questions ?? '?');
    const get = `lme datasets download ${name}${source.bytes ? ` (${(source.bytes / 1e6).toFixed(0)} MB)` : ''}`;
    if (verify) {
      const result = verified.find((item) => item.dataset === name)!;
      const copy = sources.knownCopies.find((candidate) => candidate.sha256 === result.sha256);
      listings.push({
        name,
        what,
        questions: String(copy?.questions ?? questions),
        status: STATUS_TEXT[result.status],
        path: result.path ?? '',
        ...(result.status === 'missing' ? { get } : {}),
      });
      continue;
    }
    const path = pathIfPresent(name, dataDir);
    listings.push({
      name,
      what,
      questions,
      status: path ? 'present (not checked)' : 'not downloaded',
      path: path ?? '',
      ...(path ? {} : { get }),
    });
  }
  for (const benchmark of Object.values(benchmarks())) {
    for (const entry of benchmark.catalog ?? []) {
      const found = entry.locate(dataDir);
      listings.push({
        name: entry.name,
        what: entry.what,
        questions: entry.questions,
        status: `${CATALOG_STATUS[found.status]}${found.note ? ` (${found.note})` : ''}`,
        path: found.path,
        ...(found.status === 'present' ? {} : { get: entry.get }),
      });
    }
  }
  return listings;
}

/** Two lines a dataset: name, status, questions and path; then what it is. */
export function renderDatasetList(listings: readonly DatasetListing[]): string {
  const width = (pick: (listing: DatasetListing) => string) =>
    Math.max(...listings.map((listing) => pick(listing).length));
  const [name, status, questions] = [width((l) => l.name), width((l) => l.status), width((l) => l.questions)];
  return listings
    .map(
      (listing) =>
        `${listing.name.padEnd(name)}  ${listing.status.padEnd(status)}  ${listing.questions.padStart(questions)} questions  ${listing.path}`.trimEnd() +
        `\n${' '.repeat(name + 2)}${listing.what}\n` +
        (listing.get ? `${' '.repeat(name + 2)}get: ${listing.get}\n` : ''),
    )
    .join('');
}

function pathIfPresent(name: string, dataDir: string): string | undefined {
  try {
    return resolveDatasetPath(name, dataDir);
  } catch {
    return undefined;
  }
}

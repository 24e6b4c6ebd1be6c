import type { DatasetVerifyResult as VerifyResult } from '../benchmarks/benchmark.js';
import { publishedDatasetFiles } from '../benchmarks/benchmark-registry.js';
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

/** One known dataset as `lme datasets list` shows it. */
export type DatasetListing = { name: string; what: string; questions: string; status: string; path: string };

/**
 * `lme datasets list`: every dataset lme knows (the committed sample and the files of
 * configs/datasets.json), what it is, and where it is in the data dir with its SHA-256 checked
 * (a known rebuilt copy counts its own questions); with `verify` false, only whether the file is there.
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
    if (verify) {
      const result = verified.find((item) => item.dataset === name)!;
      const copy = sources.knownCopies.find((candidate) => candidate.sha256 === result.sha256);
      listings.push({
        name,
        what,
        questions: String(copy?.questions ?? questions),
        status: STATUS_TEXT[result.status],
        path: result.path ?? '',
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
    });
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
        `\n${' '.repeat(name + 2)}${listing.what}\n`,
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

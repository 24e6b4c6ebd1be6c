import { COMMITTED_SAMPLE, resolveDatasetPath } from '../benchmarks/longmemeval/load-longmemeval.js';
import { type VerifyResult, verifyDatasets } from '../benchmarks/longmemeval/verify-datasets.js';
import type { DatasetSources } from '../dataset/dataset-sources.js';
import { renderMarkdownTable } from '../results/markdown-table.js';

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

/**
 * `lme datasets list`: every dataset lme knows (the committed sample and the files of
 * configs/datasets.json), what it is, and where it is in the data dir with its SHA-256 checked;
 * with `verify` false, only whether the file is there.
 */
export async function listDatasets(
  sources: DatasetSources,
  dataDir: string,
  verify: boolean,
): Promise<string> {
  const names = Object.keys(sources.files);
  const verified = verify ? await verifyDatasets(sources, names, dataDir) : [];
  const rows = [['sample', WHAT.sample!, '22', 'always here', COMMITTED_SAMPLE]];
  for (const name of names) {
    const source = sources.files[name]!;
    const what = WHAT[name] ? `${WHAT[name]}: ${source.file}` : source.file;
    const questions = String(source.questions ?? '?');
    if (verify) {
      const result = verified.find((item) => item.dataset === name)!;
      rows.push([name, what, questions, STATUS_TEXT[result.status], result.path ?? '']);
      continue;
    }
    const path = pathIfPresent(name, dataDir);
    rows.push([name, what, questions, path ? 'present (not checked)' : 'not downloaded', path ?? '']);
  }
  return `${renderMarkdownTable(['name', 'what it is', 'questions', 'status', 'path'], rows)}\n`;
}

function pathIfPresent(name: string, dataDir: string): string | undefined {
  try {
    return resolveDatasetPath(name, dataDir);
  } catch {
    return undefined;
  }
}

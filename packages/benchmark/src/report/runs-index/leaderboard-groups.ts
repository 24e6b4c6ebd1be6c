import type { RunOverview } from './run-overview.js';

/** What makes two runs' figures comparable beyond dataset and convention; null: not recorded. */
type Signature = { checksum: string | null; errata: string; judge: string | null };

/** One leaderboard table: runs of one dataset and convention whose figures are comparable. */
export type LeaderboardGroup = {
  /** `sample · official (exclusion A)`. */
  title: string;
  benchmark: string;
  runs: RunOverview[];
  /** Why this table is apart from the first one of its dataset and convention; null for the first. */
  apart: string | null;
  signature: Signature;
};

/** The dataset's checksum: of its text when the run read it all, else of the file's bytes. */
function checksumOf(run: RunOverview): string | null {
  if (run.dataset_sha256 !== null) return `text:${run.dataset_sha256}`;
  return run.dataset_file_sha256 === null ? null : `file:${run.dataset_file_sha256}`;
}

/** The errata's name only: how many questions it touched depends on the run's questions, not on the errata. */
const errataName = (run: RunOverview) => run.errata.replace(/ \(.*\)$/, '');

function signatureOf(run: RunOverview): Signature {
  return { checksum: checksumOf(run), errata: errataName(run), judge: run.judge };
}

/** Equal, or either side not recorded (a retrieval-only run has no judge; a stopped old run no text checksum). */
const agrees = (left: string | null, right: string | null) =>
  left === null || right === null || left === right;

function compatible(group: Signature, run: Signature): boolean {
  const sameKind = group.checksum?.slice(0, 5) === run.checksum?.slice(0, 5);
  return (
    (!sameKind || agrees(group.checksum, run.checksum)) &&
    group.errata === run.errata &&
    agrees(group.judge, run.judge)
  );
}

function merge(group: Signature, run: Signature): Signature {
  return {
    checksum: group.checksum ?? run.checksum,
    errata: group.errata,
    judge: group.judge ?? run.judge,
  };
}

const shortSum = (checksum: string | null) => (checksum === null ? 'unknown' : `${checksum.slice(5, 17)}…`);

/** The sentence saying why a table's runs are not comparable with the first table's. */
function apartReason(first: Signature, other: Signature): string {
  const reasons: string[] = [];
  if (!agrees(first.checksum, other.checksum))
    reasons.push(
      `a different dataset checksum (${shortSum(other.checksum)}, not ${shortSum(first.checksum)})`,
    );
  if (first.errata !== other.errata) reasons.push(`different errata (${other.errata}, not ${first.errata})`);
  if (!agrees(first.judge, other.judge))
    reasons.push(`a different judge (${other.judge}, not ${first.judge})`);
  return `Not comparable with the table above: ${reasons.join('; ') || 'a different setting'}.`;
}

function titleOf(run: RunOverview): string {
  return `${run.benchmark} · ${run.dataset} · ${run.convention}${run.exclusion ? ` (exclusion ${run.exclusion})` : ''}`;
}

/**
 * The runs in leaderboard tables: one per benchmark, dataset and convention (exclusion included),
 * split further when dataset checksum, errata or judge differ; the largest table of a dataset
 * first, the others saying why they are apart. Tables in the order their newest run came.
 */
export function groupForLeaderboard(runs: readonly RunOverview[]): LeaderboardGroup[] {
  const byTitle = new Map<string, { signature: Signature; runs: RunOverview[] }[]>();
  for (const run of runs) {
    const title = titleOf(run);
    const groups = byTitle.get(title) ?? [];
    byTitle.set(title, groups);
    const signature = signatureOf(run);
    const group = groups.find((candidate) => compatible(candidate.signature, signature));
    if (group === undefined) groups.push({ signature, runs: [run] });
    else {
      group.runs.push(run);
      group.signature = merge(group.signature, signature);
    }
  }
  return [...byTitle.entries()].flatMap(([title, groups]) => {
    const ordered = [...groups].sort((left, right) => right.runs.length - left.runs.length);
    const first = ordered[0]!.signature;
    return ordered.map((group, index) => ({
      title,
      benchmark: group.runs[0]!.benchmark,
      runs: group.runs,
      apart: index === 0 ? null : apartReason(first, group.signature),
      signature: group.signature,
    }));
  });
}

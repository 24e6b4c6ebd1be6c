import { datasetName } from './render-runs-list.js';
import type { RunOverview } from './run-overview.js';

/**
 * What makes two runs' figures comparable beyond dataset and convention: the dataset's checksum
 * (of its text, known once a run read it all; of the file's bytes, recorded at the start), the
 * errata and the judge. null: not recorded.
 */
type Signature = { text: string | null; file: string | null; errata: string; judge: string | null };

/** One leaderboard table: runs of one dataset and convention whose figures are comparable. */
export type LeaderboardGroup = {
  /** `longmemeval · sample · official (exclusion A)`. */
  title: string;
  benchmark: string;
  runs: RunOverview[];
  /** Why this table is apart from the first one of its dataset and convention; null for the first. */
  apart: string | null;
  /** The dataset checksum the table's runs share (of the text, else of the file), null when none recorded it. */
  checksum: string | null;
  errata: string;
  judge: string | null;
};

/** The errata's name only: how many questions it touched depends on the run's questions, not on the errata. */
const errataName = (run: RunOverview) => run.errata.replace(/ \(.*\)$/, '');

function signatureOf(run: RunOverview): Signature {
  return {
    text: run.dataset_sha256,
    file: run.dataset_file_sha256,
    errata: errataName(run),
    judge: run.judge,
  };
}

/** Equal, or either side not recorded (a retrieval-only run has no judge; a stopped run no text checksum). */
const agrees = (left: string | null, right: string | null) =>
  left === null || right === null || left === right;

function compatible(group: Signature, run: Signature): boolean {
  return (
    agrees(group.text, run.text) &&
    agrees(group.file, run.file) &&
    group.errata === run.errata &&
    agrees(group.judge, run.judge)
  );
}

function merge(group: Signature, run: Signature): Signature {
  return {
    text: group.text ?? run.text,
    file: group.file ?? run.file,
    errata: group.errata,
    judge: group.judge ?? run.judge,
  };
}

const short = (checksum: string | null) => (checksum === null ? 'unknown' : `${checksum.slice(0, 12)}…`);

/** The sentence saying why a table's runs are not comparable with the first table's. */
function apartReason(first: Signature, other: Signature): string {
  const reasons: string[] = [];
  if (!agrees(first.text, other.text))
    reasons.push(`a different dataset checksum (${short(other.text)}, not ${short(first.text)})`);
  else if (!agrees(first.file, other.file))
    reasons.push(`a different dataset file (SHA-256 ${short(other.file)}, not ${short(first.file)})`);
  if (first.errata !== other.errata) reasons.push(`different errata (${other.errata}, not ${first.errata})`);
  if (!agrees(first.judge, other.judge))
    reasons.push(`a different judge (${other.judge}, not ${first.judge})`);
  return `Not comparable with the table above: ${reasons.join('; ') || 'a different setting'}.`;
}

/** The questions a run set out to answer (a stopped run that did not record them: those it did). */
const questionsOf = (run: RunOverview) => run.questions_total ?? run.questions_done;

/**
 * A table's heading: the benchmark, the dataset (a path by its last two parts), the convention,
 * and the question set: how many questions, graded at which level.
 */
function titleOf(run: RunOverview): string {
  return `${run.benchmark} · ${datasetName(run.dataset)} · ${run.convention}${run.exclusion ? ` (exclusion ${run.exclusion})` : ''} · ${questionsOf(run)} questions · ${run.granularity} level`;
}

/**
 * Runs that may share a table: the same benchmark, dataset file name and convention (exclusion
 * included), on the same question set: as many questions, graded at the same granularity (a
 * 4-question run beside a 22-question one, or session recall beside turn recall, compares nothing).
 */
function keyOf(run: RunOverview): string {
  return JSON.stringify([
    run.benchmark,
    run.dataset.replace(/^.*[\\/]/, ''),
    run.convention,
    run.exclusion,
    questionsOf(run),
    run.granularity,
  ]);
}

/**
 * The runs in leaderboard tables: one per benchmark, dataset, convention (exclusion included) and
 * question set (count and granularity),
 * split further when dataset checksum, errata or judge differ; the largest table of a dataset
 * first, the others saying why they are apart. Tables in the order their newest run came.
 */
export function groupForLeaderboard(runs: readonly RunOverview[]): LeaderboardGroup[] {
  const byTitle = new Map<string, { signature: Signature; runs: RunOverview[] }[]>();
  for (const run of runs) {
    const key = keyOf(run);
    const groups = byTitle.get(key) ?? [];
    byTitle.set(key, groups);
    const signature = signatureOf(run);
    const group = groups.find((candidate) => compatible(candidate.signature, signature));
    if (group === undefined) groups.push({ signature, runs: [run] });
    else {
      group.runs.push(run);
      group.signature = merge(group.signature, signature);
    }
  }
  return [...byTitle.values()].flatMap((groups) => {
    const ordered = [...groups].sort((left, right) => right.runs.length - left.runs.length);
    const first = ordered[0]!.signature;
    return ordered.map((group, index) => ({
      title: titleOf(group.runs[0]!),
      benchmark: group.runs[0]!.benchmark,
      runs: group.runs,
      apart: index === 0 ? null : apartReason(first, group.signature),
      checksum: group.signature.text ?? group.signature.file,
      errata: group.signature.errata,
      judge: group.signature.judge,
    }));
  });
}

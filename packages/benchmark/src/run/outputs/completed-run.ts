import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { READ_LIMITS, readGuardedTextFile } from '../../config/read-guarded-file.js';
import type { Summary } from '../../results/summary.js';
import { spendOf } from '../checks/spend.js';
import { folderFileProblem } from '../files/folder-file-problem.js';
import { refuseLink } from '../files/no-follow-file.js';
import { RUN_FILES } from '../files/run-folder.js';
import type { BenchmarkResult } from '../run-context.js';
import type { ResumeState } from './run-manifest.js';
import { summarySchema } from './summary-schema.js';

/**
 * A resume with nothing to do: the stored run finished (no partial mark, every question it set out
 * to answer in samples.jsonl, none to retry, the same setup) and wrote its summary and table.
 * A Kubernetes pod retried after its shard completed then leaves the folder byte for byte as it was.
 */
export function isCompleteRun(resume: ResumeState): boolean {
  const { manifest, previous, retrying, droppedTornLine, mixedChanges, dir } = resume;
  return (
    manifest.finished_at !== undefined &&
    manifest.partial === undefined &&
    manifest.fingerprint !== undefined &&
    retrying === 0 &&
    !droppedTornLine &&
    mixedChanges === undefined &&
    (manifest.questions_total === undefined || previous.length === manifest.questions_total) &&
    existsSync(join(dir, 'summary.json')) &&
    existsSync(join(dir, 'report.md'))
  );
}

/**
 * The result of a complete run read back from its folder, which is left as it is. A folder a
 * continued run would refuse to write (a run file that is a link, as a hostile folder has) is
 * refused the same way, and nothing is read through such a link.
 */
export function completedRunResult(resume: ResumeState): BenchmarkResult {
  for (const name of RUN_FILES) refuseLink(join(resume.dir, name));
  const path = join(resume.dir, 'summary.json');
  let value: unknown;
  try {
    value = JSON.parse(readGuardedTextFile(path, { maxBytes: READ_LIMITS.summary }));
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message})`);
  }
  const checked = summarySchema.safeParse(value);
  if (!checked.success) throw new Error(folderFileProblem(path, checked.error));
  return {
    dir: resume.dir,
    summary: checked.data as Summary,
    table: readGuardedTextFile(join(resume.dir, 'report.md'), { maxBytes: READ_LIMITS.summary }),
    spend: spendOf(resume.previous),
  };
}

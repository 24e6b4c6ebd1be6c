import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { READ_LIMITS, readGuardedTextFile } from '../../config/read-guarded-file.js';
import { writeFileNoFollow } from '../../run/files/no-follow-file.js';
import type { ClaimMeasurement } from './measure-claim.js';

/** The file `lme claims check` adds to the run folder it made: the claim, its figures and verdict. */
export const CLAIM_CHECK_FILE = 'claim.json';

export function writeClaimCheck(runDir: string, measurement: ClaimMeasurement): void {
  writeFileNoFollow(join(runDir, CLAIM_CHECK_FILE), `${JSON.stringify(measurement, null, 2)}\n`);
}

/**
 * A run folder's claim.json, or undefined when it has none. A results folder is data from anyone:
 * read capped, and a file that is not a claim check is refused in one sentence naming it.
 */
export function readClaimCheck(runDir: string): ClaimMeasurement | undefined {
  const path = join(runDir, CLAIM_CHECK_FILE);
  if (!existsSync(path)) return undefined;
  let value: Partial<ClaimMeasurement> | null;
  try {
    value = JSON.parse(
      readGuardedTextFile(path, { maxBytes: READ_LIMITS.small }),
    ) as Partial<ClaimMeasurement> | null;
  } catch (error) {
    throw new Error(`${path} is not a readable claim check (${(error as Error).message}).`);
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.claim !== 'string' ||
    !Array.isArray(value.figures) ||
    (value.verdict !== 'reproduced' && value.verdict !== 'not reproduced')
  )
    throw new Error(`${path} is not a claim check: it needs "claim", "figures" and "verdict".`);
  return value as ClaimMeasurement;
}

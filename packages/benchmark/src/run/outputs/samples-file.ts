import { existsSync } from 'node:fs';
import { READ_LIMITS, readGuardedTextFile } from '../../config/read-guarded-file.js';
import type { Sample } from '../../results/sample.js';
import { folderFileProblem } from '../files/folder-file-problem.js';
import { sampleSchema } from './sample-schema.js';

export type SamplesFile = {
  samples: Sample[];
  /** A last line cut off mid-write (no newline, not JSON) was found and left out. */
  tornLastLine: boolean;
};

/**
 * Reads samples.jsonl. A torn last line (a crash mid-write) is dropped and reported; a bad line
 * anywhere else, or a field of any line that fails `sampleSchema`, is an error naming the file,
 * line and field. When a question appears more than once
 * (re-run after an error), its last line wins.
 */
export function readSamplesFile(path: string): SamplesFile {
  if (!existsSync(path)) return { samples: [], tornLastLine: false };
  const text = readGuardedTextFile(path, { maxBytes: READ_LIMITS.lines });
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  let tornLastLine = false;
  if (last.trim() !== '') {
    // No trailing newline: the final write did not finish unless it still parses.
    try {
      JSON.parse(last);
      lines.push(last);
    } catch {
      tornLastLine = true;
    }
  }
  const byId = new Map<string, Sample>();
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${path}: line ${index + 1} is not valid JSON`);
    }
    // Every field checked: the folder may come from anyone, and every reader shows these values.
    const checked = sampleSchema.safeParse(value);
    if (!checked.success) throw new Error(folderFileProblem(`${path} line ${index + 1}`, checked.error));
    const sample = checked.data as Sample;
    byId.set(sample.question_id, sample);
  });
  return { samples: [...byId.values()], tornLastLine };
}

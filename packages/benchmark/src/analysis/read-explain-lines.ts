import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { READ_LIMITS, readGuardedTextFile } from '../config/read-guarded-file.js';
import { folderFileProblem } from '../run/files/folder-file-problem.js';
import { type ExplainLine, explainLineSchema } from '../run/outputs/explain-line-schema.js';

/**
 * explain.jsonl of a results folder by question id, undefined when the run wrote none. Every line
 * that is JSON is checked (run/outputs/explain-line-schema.ts), a bad one named by file, line and field; a
 * line that is not JSON (torn by a crash mid-write) is left out, and the question's page falls
 * back to samples.jsonl.
 */
export function readExplainLines(dir: string): Map<string, ExplainLine> | undefined {
  const path = join(dir, 'explain.jsonl');
  if (!existsSync(path)) return undefined;
  const lines = readGuardedTextFile(path, { maxBytes: READ_LIMITS.lines }).split('\n');
  const byId = new Map<string, ExplainLine>();
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A torn line (a crash mid-write): the question's page falls back to samples.jsonl.
      return;
    }
    const checked = explainLineSchema.safeParse(value);
    if (!checked.success) throw new Error(folderFileProblem(`${path} line ${index + 1}`, checked.error));
    byId.set(checked.data.question_id, checked.data);
  });
  return byId;
}

import type { z } from 'zod';
import { escapeControlCharacters } from '../../config/terminal-text.js';

/** `hits[0].rank`, `metrics["session.recall_any@5"]`: a field as a reader finds it in the file. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key).slice(0, 80))}]`;
  }
  return escapeControlCharacters(text);
}

/**
 * One sentence naming the file (and line), the field and what is wrong with it, for a results
 * folder file that failed its schema: `…/samples.jsonl line 3: field hits[0].rank must be a number
 * (expected number, received string); lme wrote no such file.`
 */
export function folderFileProblem(where: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${where} is not a file lme wrote.`;
  const field = issue.path.length === 0 ? 'the line itself' : `field ${fieldPath(issue.path)}`;
  const detail = escapeControlCharacters(issue.message.replace(/^Invalid input: /, '')).slice(0, 200);
  return `${where}: ${field} is invalid (${detail}); lme writes no such value, so the folder was not read.`;
}

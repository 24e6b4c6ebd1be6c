import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { decodeUtf8 } from './strict-utf8.js';

/**
 * A checked-in JSON config file (configs/datasets.json, configs/models.json, ...), validated: an
 * unreadable file or a wrong field is one sentence naming the file and the first field at fault.
 */
export function readJsonConfig<Schema extends z.ZodType>(path: string, schema: Schema): z.infer<Schema> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`${path}: cannot be read as JSON (${(error as Error).message})`);
  }
  const text = decodeUtf8(bytes, path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: cannot be read as JSON (${(error as Error).message})`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${path}: field "${issue.path.join('.')}" ${issue.message}`);
  }
  return result.data;
}

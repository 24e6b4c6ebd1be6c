import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { validateDataset } from '../benchmarks/validate-dataset.js';
import { errataLabel } from './apply-errata.js';
import type { LoadedErrata } from './load-errata.js';

/** SHA-256 of a dataset's JSON text: the file's bytes, or for a `.gz` the decompressed bytes. */
export async function datasetTextSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  const source = createReadStream(path, { highWaterMark: 1 << 20 });
  const sink = async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) hash.update(chunk);
  };
  if (path.endsWith('.gz')) await pipeline(source, createGunzip(), sink);
  else await pipeline(source, sink);
  return hash.digest('hex');
}

/**
 * Checks that the errata were written for this dataset file (its text's SHA-256 is one of the
 * errata's `files`). A mismatch is an error in one sentence, or with `override` a warning returned
 * for the caller to print (and the run goes on with the entries that fit).
 */
export async function checkErrataDataset(
  errata: LoadedErrata,
  datasetPath: string,
  override = false,
): Promise<{ sha256: string; warning?: string }> {
  const sha256 = await datasetTextSha256(datasetPath);
  const unknown = await questionsNotIn(errata, datasetPath);
  if (errata.files.some((file) => file.sha256 === sha256)) {
    if (unknown.length > 0) {
      throw new Error(
        `The errata ${errataLabel(errata)} (${errata.path}) name ${unknown.length} question${unknown.length === 1 ? '' : 's'} that ${datasetPath} does not have (${listIds(unknown)}); an entry must name a question of the file it corrects.`,
      );
    }
    return { sha256 };
  }
  const message =
    `The errata ${errataLabel(errata)} (--errata) were written for another file than ${datasetPath} ` +
    `(its text's SHA-256 is ${sha256.slice(0, 12)}…, the errata name ${errata.files.map((file) => `${file.sha256.slice(0, 12)}…`).join(', ')})`;
  if (!override)
    throw new Error(`${message}; pass --errata-any-checksum to apply the entries that fit anyway.`);
  const skipped =
    unknown.length > 0
      ? `; ${unknown.length} name questions the file does not have (${listIds(unknown)})`
      : '';
  return { sha256, warning: `${message}; applying the entries that fit (--errata-any-checksum)${skipped}.` };
}

/** The question ids the errata name that the dataset file does not hold, in the errata's order. */
async function questionsNotIn(errata: LoadedErrata, datasetPath: string): Promise<string[]> {
  const { questions } = await validateDataset(datasetPath);
  const known = new Set(questions.map((question) => question.questionId));
  return [...new Set(errata.entries.map((entry) => entry.question_id))].filter((id) => !known.has(id));
}

/** `a, b, c, … (12 in all)`. */
function listIds(ids: readonly string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, … (${ids.length} in all)` : ''}`;
}

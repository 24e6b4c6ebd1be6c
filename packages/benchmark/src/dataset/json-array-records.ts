import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { describeNonUtf8, firstNonUtf8Byte } from '../config/strict-utf8.js';
import { formatLimit, INPUT_LIMITS } from './input-limits.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Streams the top-level objects of a JSON array file (`.json`, or `.json.gz` decompressed on the
 * fly) as raw UTF-8 text, one object at a time, so a 257 MB file never sits in memory whole and
 * decompression (on libuv's thread pool) overlaps with parsing. Only the bytes between an object's
 * braces are kept; the scanner jumps from quote to quote inside strings. Outside the objects only
 * the array's brackets, commas and whitespace may appear: anything else (text between records, an
 * item that is not an object, a missing or extra comma, text after the array) throws an Error
 * naming the byte position in the uncompressed JSON and how many records came before it. The
 * objects themselves are checked by JSON.parse in the caller.
 */
export async function* readJsonArrayObjects(
  path: string,
  options: {
    /** Every chunk of the (uncompressed) JSON, in order. */
    onBytes?: (bytes: Buffer) => void;
    /** Bytes read from the file itself (compressed for `.gz`). */
    onFileBytes?: (count: number) => void;
  } = {},
): AsyncGenerator<string> {
  const source = createReadStream(path, { highWaterMark: 1 << 20 });
  const gzipped = path.endsWith('.gz');
  // Compressed bytes are counted as the gunzip pipe pulls them; plain bytes in the loop below.
  if (gzipped) source.on('data', (chunk) => options.onFileBytes?.(chunk.length));
  const stream = gzipped ? source.pipe(createGunzip({ chunkSize: 1 << 20 })) : source;
  source.on('error', (error) => stream.destroy(error));

  let depth = 0;
  let inString = false;
  // Number of backslashes immediately before the current position inside a string, carried
  // across chunk boundaries.
  let backslashRun = 0;
  let pieces: Buffer[] = [];
  let objectStart = -1;
  // Where the scanner stands outside the records: before the array, between items (which token
  // may come next), or after the array. Anything else there is reported, never skipped.
  let expecting: Expecting = 'array';
  let records = 0;
  // Uncompressed bytes before the current chunk, for error positions.
  let offset = 0;
  // Bytes of the record being read kept so far, and where the current string began (uncompressed
  // offset): both are bounded (INPUT_LIMITS), so a small gzip of one huge string cannot fill memory.
  let recordBytes = 0;
  let stringStart = 0;
  // Where the record being read began (uncompressed offset), to name a byte that is not UTF-8.
  let recordStart = 0;
  const tooLarge = (what: string, limit: number): never => {
    throw new Error(
      `${what} at byte ${offset} of the JSON, after ${plural(records)}, is larger than ${formatLimit(limit)}, the most lme reads (a decompression bomb, or not a dataset)`,
    );
  };

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      options.onBytes?.(chunk);
      if (!gzipped) options.onFileBytes?.(chunk.length);
      let position = 0;
      const length = chunk.length;
      objectStart = depth >= 2 ? 0 : -1;
      while (position < length) {
        if (inString) {
          // Walk to the next quote, counting the backslashes just before it.
          const quote = chunk.indexOf(QUOTE, position);
          const stop = quote === -1 ? length : quote;
          let run = 0;
          let cursor = stop - 1;
          while (cursor >= position && chunk[cursor] === BACKSLASH) {
            run++;
            cursor--;
          }
          if (cursor < position) run += backslashRun;
          if (quote === -1) {
            backslashRun = run;
            position = length;
            break;
          }
          backslashRun = 0;
          position = quote + 1;
          if (run % 2 === 0) inString = false;
          continue;
        }
        const byte = chunk[position]!;
        if (depth <= 1) {
          // Outside every record: only the array's own punctuation and whitespace may appear.
          expecting = betweenRecords(expecting, byte, records, () => ({
            at: offset + position,
            excerpt: excerptAt(chunk, position),
          }));
          if (byte === OPEN_BRACKET && depth === 0) depth = 1;
          else if (byte === CLOSE_BRACKET) depth = 0;
          else if (byte === OPEN_BRACE) {
            objectStart = position;
            recordStart = offset + position;
            depth = 2;
          }
          position++;
          continue;
        }
        if (byte === QUOTE) {
          inString = true;
          stringStart = offset + position;
          backslashRun = 0;
        } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          depth++;
          // depth counts the file's array too: a record's own braces are level 1 of it.
          if (depth - 1 > INPUT_LIMITS.nestingDepth) {
            throw new Error(
              `record ${records + 1}, at byte ${offset + position} of the JSON, is nested more than ${INPUT_LIMITS.nestingDepth} levels deep (arrays and objects inside one another), the most lme reads; a dataset record needs a few`,
            );
          }
        } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          depth--;
          if (depth === 1) {
            pieces.push(chunk.subarray(objectStart, position + 1));
            records++;
            expecting = 'comma-or-end';
            const bytes = Buffer.concat(pieces);
            // Checked per record, so nothing is buffered beyond the record; never turned into U+FFFD.
            const found = firstNonUtf8Byte(bytes);
            if (found) {
              throw new Error(
                `${describeNonUtf8(found, recordStart)} of the JSON, in record ${records - 1}, is not UTF-8; a dataset file must be UTF-8 text: save it as UTF-8`,
              );
            }
            yield bytes.toString('utf8');
            pieces = [];
            recordBytes = 0;
            objectStart = -1;
          }
        }
        position++;
      }
      if (depth >= 2 && objectStart !== -1) {
        pieces.push(Buffer.from(chunk.subarray(objectStart)));
        recordBytes += length - objectStart;
      }
      offset += length;
      if (inString && offset - stringStart > INPUT_LIMITS.stringBytes)
        tooLarge('a JSON string', INPUT_LIMITS.stringBytes);
      if (recordBytes > INPUT_LIMITS.recordBytes) tooLarge(`record ${records + 1}`, INPUT_LIMITS.recordBytes);
      if (offset > INPUT_LIMITS.streamBytes) tooLarge('the decompressed JSON', INPUT_LIMITS.streamBytes);
    }
  } finally {
    // A caller that stops early (format sniffing, an error) must not leave the file open.
    source.destroy();
    stream.destroy();
  }
  if (expecting === 'array' && offset === 0) throw new Error('the file is empty');
  if (expecting === 'array') throw new Error('the file holds no JSON array');
  if (expecting !== 'nothing' || inString) {
    throw new Error(`the JSON ends early after ${plural(records)} (truncated file?)`);
  }
}

/** What may come next outside the records. */
type Expecting = 'array' | 'record-or-end' | 'record' | 'in-record' | 'comma-or-end' | 'nothing';

const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);
const COMMA = 0x2c;

/**
 * The state after one byte outside the records, or an Error naming the byte position, what was
 * found, and how many records came before it.
 */
function betweenRecords(
  expecting: Expecting,
  byte: number,
  records: number,
  where: () => { at: number; excerpt: string },
): Expecting {
  if (WHITESPACE.has(byte)) return expecting;
  const fail = (problem: string): never => {
    const { at, excerpt } = where();
    throw new Error(`${problem} at byte ${at} of the JSON, after ${plural(records)} (found ${excerpt})`);
  };
  switch (expecting) {
    case 'array':
      if (byte === OPEN_BRACKET) return 'record-or-end';
      if (byte === OPEN_BRACE) fail('the file is one JSON object, not a JSON array of question records');
      if (byte === 0xef && records === 0) {
        fail(
          'the file starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow: save it without one',
        );
      }
      return fail('the file is not a JSON array of question records');
    case 'record-or-end':
    case 'record':
      if (byte === OPEN_BRACE) return 'in-record';
      if (byte === CLOSE_BRACKET && expecting === 'record-or-end') return 'nothing';
      if (byte === CLOSE_BRACKET) return fail('a "," is followed by no record');
      if (byte === COMMA) return fail('an array item is missing');
      return fail(`array item ${records + 1} is not a JSON object`);
    case 'comma-or-end':
      if (byte === COMMA) return 'record';
      if (byte === CLOSE_BRACKET) return 'nothing';
      if (byte === OPEN_BRACE) return fail('a "," is missing between records');
      return fail('unexpected text between records');
    case 'in-record':
    case 'nothing':
      return fail('unexpected text after the JSON array');
  }
}

/** Up to 24 characters from `position`, quoted, for error messages. */
function excerptAt(chunk: Buffer, position: number): string {
  const text = chunk
    .subarray(position, position + 24)
    .toString('utf8')
    .replace(/\s+/g, ' ');
  return JSON.stringify(text);
}

function plural(records: number): string {
  return records === 1 ? '1 record' : `${records} records`;
}

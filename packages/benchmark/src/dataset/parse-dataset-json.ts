import { formatLimit, INPUT_LIMITS, readWholeDatasetFile } from './input-limits.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** One open array or object while scanning: where in it the scanner stands. */
type Frame = { array: boolean; index: number; key: string | undefined; expectingKey: boolean };

/** The longest key kept to name a place (`source_chat_ids`); longer ones are shown cut. */
const KEY_SHOWN = 60;
/** How many steps of a path a message shows before `…`. */
const PATH_SHOWN = 8;

/**
 * Where the scanner stands, as a JSON path a reader can follow: `multi_hop[3].source_chat_ids[0]`;
 * deeper paths are cut after their first steps.
 */
function pathOf(frames: readonly Frame[]): string {
  const steps = frames.slice(0, PATH_SHOWN).map((frame, at) => {
    if (frame.array) return `[${frame.index}]`;
    const key = frame.key ?? '';
    return `${at === 0 ? '' : '.'}${/^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key)}`;
  });
  return `${steps.join('') || 'the top level'}${frames.length > PATH_SHOWN ? '…' : ''}`;
}

/**
 * Checks the bounds `JSON.parse` knows nothing of before it runs: no string longer than
 * `INPUT_LIMITS.stringBytes` and no value nested deeper than `INPUT_LIMITS.nestingDepth`, each
 * refused in one sentence naming the file and the place (`chat.json: the value at
 * [0].turns[2][1].content …`). Linear, one pass; strings are skipped from quote to quote.
 */
export function checkJsonBounds(bytes: Uint8Array, path: string): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: Frame[] = [];
  const maxString = INPUT_LIMITS.stringBytes;
  const maxDepth = INPUT_LIMITS.nestingDepth;
  let position = 0;
  const length = buffer.length;
  while (position < length) {
    const byte = buffer[position]!;
    if (byte === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let end = position;
      for (;;) {
        end = buffer.indexOf(QUOTE, end + 1);
        if (end === -1) return; // unterminated: JSON.parse names it
        let run = 0;
        while (buffer[end - 1 - run] === BACKSLASH) run++;
        if (run % 2 === 0) break;
      }
      const top = frames.at(-1);
      if (end - position - 1 > maxString) {
        throw new Error(
          `${path}: the string at ${pathOf(frames)} holds more than ${formatLimit(maxString)}, the most lme reads of one string (not a dataset file?)`,
        );
      }
      if (top && !top.array && top.expectingKey) {
        top.key = buffer.toString('utf8', position + 1, Math.min(end, position + 1 + KEY_SHOWN));
        top.expectingKey = false;
      }
      position = end + 1;
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (frames.length >= maxDepth) {
        throw new Error(
          `${path}: the value at ${pathOf(frames)} is nested more than ${maxDepth} levels deep (arrays and objects inside one another), the most lme reads; a dataset file needs a few`,
        );
      }
      frames.push({ array: byte === OPEN_BRACKET, index: 0, key: undefined, expectingKey: true });
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      frames.pop();
    } else if (byte === COMMA) {
      const top = frames.at(-1);
      if (top?.array) top.index++;
      else if (top) top.expectingKey = true;
    } else if (byte === COLON) {
      const top = frames.at(-1);
      if (top) top.expectingKey = false;
    }
    position++;
  }
}

/**
 * A dataset file's JSON text parsed, after `checkJsonBounds`; an error names the file. The bytes
 * are UTF-8 already (`readWholeDatasetFile` checked them).
 */
export function parseDatasetJson(path: string, bytes: Uint8Array): unknown {
  checkJsonBounds(bytes, path);
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * A dataset file read whole through the guarded reader (`readWholeDatasetFile`: regular file,
 * size cap, UTF-8) and parsed within the string and nesting bounds: the bytes (for a checksum) and
 * the value.
 */
export async function readDatasetJson(path: string): Promise<{ bytes: Buffer; value: unknown }> {
  const bytes = await readWholeDatasetFile(path);
  return { bytes, value: parseDatasetJson(path, bytes) };
}

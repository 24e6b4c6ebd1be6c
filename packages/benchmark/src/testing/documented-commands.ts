/**
 * The shell commands the README and docs/ show, as a test runs them: fenced ```sh and ```bash
 * blocks, one command per line (a line ending in `\` continues on the next; `#` starts a comment),
 * each block with what a marker on the line before its fence declares:
 *
 *   <!-- lme-docs: skip <reason> -->   the block is not run; the reason is listed
 *   <!-- lme-docs: exit <code> -->     every command of the block exits with this code (default 0)
 */

export type DocumentedBlock = {
  /** The markdown file, as given. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly commands: readonly string[];
  /** Why the block is not run, when a skip marker says so. */
  readonly skip?: string;
  readonly expectedExit: number;
};

const FENCE_OPEN = /^(\s*)```(sh|bash)\s*$/;
const FENCE_ANY = /^\s*```/;
const MARKER = /^\s*<!--\s*lme-docs:\s*(.*?)\s*-->\s*$/;

/** The runnable blocks of one markdown text; a malformed marker fails naming its file and line. */
export function documentedBlocks(markdown: string, file: string): DocumentedBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocumentedBlock[] = [];
  let open: { line: number; indent: number; body: string[] } | undefined;
  let inOtherFence = false;
  lines.forEach((text, index) => {
    if (open) {
      if (FENCE_ANY.test(text)) {
        blocks.push(blockOf(file, open.line, open.body, markerBefore(lines, open.line - 1, file)));
        open = undefined;
      } else open.body.push(text.slice(Math.min(open.indent, text.length - text.trimStart().length)));
      return;
    }
    const fence = FENCE_OPEN.exec(text);
    if (fence && !inOtherFence) open = { line: index + 1, indent: fence[1]!.length, body: [] };
    else if (FENCE_ANY.test(text)) inOtherFence = !inOtherFence;
  });
  if (open) throw new Error(`${file}:${open.line}: the shell block is never closed.`);
  return blocks;
}

type Marker = { skip?: string; expectedExit?: number };

/** The marker on the nearest non-blank line above the fence at `fenceIndex` (0-based), if any. */
function markerBefore(lines: readonly string[], fenceIndex: number, file: string): Marker {
  let index = fenceIndex - 1;
  while (index >= 0 && lines[index]!.trim() === '') index--;
  const match = index >= 0 ? MARKER.exec(lines[index]!) : null;
  if (!match) return {};
  const [keyword, ...rest] = match[1]!.split(/\s+/);
  const argument = rest.join(' ');
  if (keyword === 'skip' && argument) return { skip: argument };
  if (keyword === 'exit' && /^\d+$/.test(argument)) return { expectedExit: Number(argument) };
  throw new Error(
    `${file}:${index + 1}: a lme-docs marker is "skip <reason>" or "exit <code>" (got "${match[1]}").`,
  );
}

function blockOf(file: string, line: number, body: readonly string[], marker: Marker): DocumentedBlock {
  return {
    file,
    line,
    commands: commandsOf(body),
    ...(marker.skip ? { skip: marker.skip } : {}),
    expectedExit: marker.expectedExit ?? 0,
  };
}

/** Lines joined at a trailing backslash, comments removed, blank lines dropped. */
export function commandsOf(body: readonly string[]): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const line of body) {
    const joined = pending ? pending + line.trimStart() : line;
    if (/\\\s*$/.test(joined)) {
      pending = `${joined.replace(/\\\s*$/, '').trimEnd()} `;
      continue;
    }
    pending = '';
    const command = withoutComment(joined).trim();
    if (command) commands.push(command);
  }
  if (pending.trim()) commands.push(withoutComment(pending).trim());
  return commands;
}

/** The command before an unquoted `#` that starts a word (a shell comment). */
export function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') index++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '\\') index++;
    else if (char === '#' && (index === 0 || /\s/.test(line[index - 1]!))) return line.slice(0, index);
  }
  return line;
}

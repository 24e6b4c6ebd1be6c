/** A GitHub-flavoured markdown table, numbers to 4 decimals, aligned for the terminal too. */
export function renderMarkdownTable(header: string[], body: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `${'-'.repeat(width + 1)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/** A metric value to 4 decimals; `-` when there is none. */
export function formatValue(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? '-' : value.toFixed(4);
}

/**
 * A signed difference to 4 decimals (`+0.0120`, `-0.0030`); an exact zero has no sign (`0.0000`),
 * since it has no direction; `-` when there is none.
 */
export function formatDelta(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  if (value === 0) return formatValue(0);
  return `${value > 0 ? '+' : ''}${formatValue(value)}`;
}

/** Where a command writes: stdout for results, stderr for progress and errors. Tests swap these. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (tables), false when piped (plain tab-separated lines). */
  isTty: boolean;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTty: Boolean(process.stdout.isTTY),
};

/** `--json`: one JSON document on stdout and nothing else. */
export function printJson(output: Output, value: unknown): void {
  output.out(JSON.stringify(value, null, 2));
}

/**
 * Rows as an aligned table with a header on a terminal, or as tab-separated lines without a
 * header when piped, so that `cut -f1` and friends work.
 */
export function printTable(output: Output, columns: { header: string; value: (row: never) => string }[], rows: readonly unknown[]): void {
  const cells = rows.map((row) => columns.map((column) => column.value(row as never)));
  if (!output.isTty) {
    for (const line of cells) output.out(line.join('\t'));
    return;
  }
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => line[i]!.length)));
  const render = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  output.out(render(columns.map((column) => column.header)));
  for (const line of cells) output.out(render(line));
}

/** Text on one line: tabs and line breaks become spaces, so a value never splits a row or a column. */
export function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ').trim();
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` cut to `max` characters with an ellipsis, for terminal columns. Characters are what a
 * reader sees (grapheme clusters): an emoji, a flag or a letter with its accents is kept whole,
 * never cut into halves that print as garbage.
 */
export function truncate(text: string, max: number): string {
  // Fast path: no cluster is shorter than one code unit, so a short string needs no segmenting.
  if (text.length <= max) return text;
  const clusters = Array.from(graphemes.segment(text), (part) => part.segment);
  return clusters.length <= max ? text : `${clusters.slice(0, max - 1).join('')}…`;
}

/** One tab-separated line for scripts; every cell is made single-line first. */
export function printLine(output: Output, cells: readonly (string | number)[]): void {
  output.out(cells.map((cell) => oneLine(String(cell))).join('\t'));
}

/** Labelled fields, aligned, for the detail views on a terminal. Empty values print as "-". */
export function printFields(output: Output, fields: readonly [label: string, value: string][], indent = '  '): void {
  const width = Math.max(0, ...fields.map(([label]) => label.length));
  for (const [label, value] of fields) output.out(`${indent}${label.padEnd(width)}  ${value === '' ? '-' : value}`.trimEnd());
}

/** An API timestamp (ISO 8601, UTC) as "2026-01-31 12:00 UTC" for people; other text is left as is. */
export function formatTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

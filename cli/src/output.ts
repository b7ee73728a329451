/** Where a command writes: stdout for results, stderr for progress and errors. Tests swap these. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (tables), false when piped (plain tab-separated lines). */
  isTty: boolean;
  /**
   * The same destination without the filter of `visibleOutput`, for what must reach it byte for
   * byte: JSON and dumps. Absent on an Output that has no filter.
   */
  exact?: Output;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTty: Boolean(process.stdout.isTTY),
};

/** The destination of `output` as it is, without the control-character filter. */
export function exactOutput(output: Output): Output {
  return output.exact ?? output;
}

/**
 * Control characters of text a stranger can write (a title, a name, a comment): C0 but tab and
 * line feed, DEL, C1 (U+0080 to U+009F: 8-bit CSI and OSC among them) and the bidirectional
 * controls (embeddings, overrides, isolates, LRM, RLM, ALM). On a terminal the first three run:
 * ESC starts a sequence that can set the window title, clear the screen or write the clipboard
 * (OSC 52); the last ones reorder what follows them, so a date can be shown backwards.
 */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * `text` with every control character shown instead of run: C0 and DEL as their Unicode control
 * pictures (ESC as ␛, BEL as ␇, CR as ␍, DEL as ␡), the others as <U+XXXX>. What follows an ESC is
 * left as plain text, inert once the ESC is no longer one, and visible to whoever reads it.
 */
export function visible(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

/**
 * `output` with every control character of what is written made visible: the CLI prints through
 * this (main), so no command can print a stranger's escape sequence to a terminal, whatever it
 * prints. JSON goes to `exact` escaped its own way (jsonText), and a dump goes there
 * byte for byte: it is data, not text for a terminal.
 */
export function visibleOutput(output: Output): Output {
  const exact = exactOutput(output);
  return { out: (text) => exact.out(visible(text)), err: (text) => exact.err(visible(text)), isTty: exact.isTty, exact };
}

/**
 * JSON text that a terminal cannot act on and that parses to `value` exactly: JSON.stringify
 * already escapes C0, and DEL, C1 and the bidirectional controls are written as \uXXXX escapes too
 * (they occur only inside strings, where such an escape means the same character).
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `--json`: one JSON document on stdout and nothing else. */
export function printJson(output: Output, value: unknown): void {
  exactOutput(output).out(jsonText(value, 2));
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

/**
 * Text on one line: tabs and line breaks become spaces, so a value never splits a row or a column,
 * and other control characters are made visible here already, so that a column's width counts
 * what is shown.
 */
export function oneLine(text: string): string {
  return visible(text.replace(/[\t\r\n]+/g, ' ').trim());
}

/** Made on first use: ICU's segmenter takes about 10 ms to build, which every command would pay at start. */
let graphemes: Intl.Segmenter | undefined;

/**
 * `text` cut to `max` characters with an ellipsis, for terminal columns. Characters are what a
 * reader sees (grapheme clusters): an emoji, a flag or a letter with its accents is kept whole,
 * never cut into halves that print as garbage.
 */
export function truncate(text: string, max: number): string {
  // Fast path: no cluster is shorter than one code unit, so a short string needs no segmenting.
  if (text.length <= max) return text;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
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

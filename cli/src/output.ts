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

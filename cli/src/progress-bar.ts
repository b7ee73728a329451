/** A one-line progress bar, redrawn in place on a terminal (stderr), for long operator commands. */
export interface ProgressBar {
  update(done: number, total: number, detail: string): void;
  /** Clears the line, so that what follows starts on a clean one. */
  done(): void;
}

/** Redraws at most this often: a terminal gains nothing from faster updates, and writes cost. */
const REDRAW_MS = 100;

/** `[########------------]  42%  detail`, cut to the terminal's width. */
export function renderProgress(done: number, total: number, detail: string, columns: number, width = 24): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * width);
  const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${detail}`;
  return line.length < columns ? line : line.slice(0, Math.max(0, columns - 1));
}

/** A bar drawn on `stream` (a TTY): carriage return, the line, and "erase to the end of the line". */
export function terminalProgressBar(stream: NodeJS.WriteStream): ProgressBar {
  let last = 0;
  let drawn = false;
  return {
    update(done, total, detail) {
      const now = Date.now();
      if (done < total && now - last < REDRAW_MS) return;
      last = now;
      drawn = true;
      stream.write(`\r${renderProgress(done, total, detail, stream.columns || 80)}\x1b[K`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}

/** For outputs that are not a terminal: draws nothing. */
export const noProgressBar: ProgressBar = { update: () => {}, done: () => {} };

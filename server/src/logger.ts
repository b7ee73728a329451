import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';

/** The levels a log line can have. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Fields of a structured log line. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** What the server logs through: one structured line per event. Tests pass their own. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Writes out what is buffered (before the process exits). */
  flush?(): void;
  /**
   * Where the one line of every request (level info) may be written directly, as a JSON line built
   * by the HTTP edge (http/edge.ts) in the shape this logger writes: given by the JSON logger of
   * createLogger; without it, the edge calls `info('request', fields)`.
   */
  requestLines?: { write(line: string): unknown };
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go instead of stderr (one call per line, synchronously). */
  write?: (line: string) => void;
  /** The file descriptor JSON lines are written to, asynchronously as on stderr (default 2, stderr). */
  fd?: number;
  /**
   * Readable lines instead of JSON. Defaults to whether stderr is a terminal: people read it
   * there, while a pipe (a log collector, a file) gets one JSON object per line.
   */
  pretty?: boolean;
}

/** The longest a log line waits in the buffer before it is written. */
const FLUSH_EVERY_MS = 250;

/**
 * pino: JSON lines written asynchronously to stderr, so logging never blocks a request on the
 * terminal or the pipe; readable lines (pino-pretty) when stderr is a terminal.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const readable = options.pretty ?? (options.write === undefined && options.fd === undefined && process.stderr.isTTY === true);
  let destination: DestinationStream & { flushSync?: () => void };
  if (options.write) {
    const write = options.write;
    destination = { write: (line: string) => write(line.replace(/\n$/, '')) };
  } else if (readable) {
    destination = pretty({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } else {
    // Lines are gathered into writes of at least 4 KiB (one write per line costs more than the
    // request it describes) and flushed at least every FLUSH_EVERY_MS, so a quiet server's last
    // lines are never held back for long; flushSync writes out the rest on exit.
    const boom = pino.destination({ dest: options.fd ?? 2, sync: false, minLength: 4096 });
    // flush() does nothing while a write is under way or the buffer is empty.
    setInterval(boom.flush.bind(boom), FLUSH_EVERY_MS).unref();
    destination = boom;
  }
  const base = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const logger = wrap(base, () => destination.flushSync?.());
  // The JSON stream takes the request line as the edge builds it (http/edge.ts): the line pino would
  // write (same keys, order and values), in about 0.2 µs instead of pino's 3 µs of generic serialisation.
  if (!readable && !options.write && base.isLevelEnabled('info')) logger.requestLines = destination;
  return logger;
}

function wrap(base: Pino, flush: () => void): Logger {
  return {
    debug: (message, fields) => base.debug(fields ?? {}, message),
    info: (message, fields) => base.info(fields ?? {}, message),
    warn: (message, fields) => base.warn(fields ?? {}, message),
    error: (message, fields) => base.error(fields ?? {}, message),
    flush: () => {
      try {
        flush();
      } catch {
        // Nothing was buffered, or stderr is gone: nothing to save.
      }
    },
  };
}

/** A logger that drops everything (tests that assert nothing about logs). */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

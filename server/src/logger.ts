/** The levels a log line can have. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Fields of a structured log line; values are rendered as logfmt `key=value`. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** A tiny structured logger: one logfmt line per event, so logs stay greppable and machine-readable. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(options: { level?: LogLevel; write?: (line: string) => void } = {}): Logger {
  const threshold = ORDER[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (ORDER[level] < threshold) return;
    write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}${renderFields(fields)}`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** A logger that drops everything (tests that assert nothing about logs). */
export const silentLogger: Logger = createLogger({ write: () => {} });

function renderFields(fields: LogFields | undefined): string {
  if (!fields) return '';
  let out = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = String(value);
    out += ` ${key}=${/^[\w.:/@+-]+$/.test(text) ? text : JSON.stringify(text)}`;
  }
  return out;
}

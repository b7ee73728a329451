import { CliError, EXIT } from './exit-codes.js';

// Checks of the values typed on the command line, made before any request so that a typo costs
// no round trip and exits with EXIT.usage.

/** `--metadata`: a JSON object (not an array, string or null). */
export function parseMetadata(text: string | undefined, flag = '--metadata'): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(`${flag} must be a JSON object, like '{"plan":"pro"}', but "${text}" is not valid JSON`, EXIT.usage);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`${flag} must be a JSON object, like '{"plan":"pro"}', not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}`, EXIT.usage);
  }
  return value as Record<string, unknown>;
}

/**
 * A flag that takes a whole number from `min` to `max` (or of at least `min`): a sign, a fraction,
 * a word or a number too long to be exact is a usage error naming the flag. `alternative` names a
 * word the flag also takes (`--rate-limit off`), for the message. Every numeric flag goes through here.
 */
export function wholeNumber(text: string, flag: string, range: { min: number; max?: number; alternative?: string }): number {
  const value = /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (value >= range.min && value <= (range.max ?? Number.MAX_SAFE_INTEGER)) return value;
  const bounds = range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`;
  const or = range.alternative ? `, or "${range.alternative}"` : '';
  throw new CliError(`${flag} must be a whole number ${bounds}${or}, not "${text}"`, EXIT.usage);
}

/** `--page`, `--limit`: a whole number from 1 to `max`, when given. */
export function positiveInteger(text: string | undefined, flag: string, max: number): number | undefined {
  return text === undefined ? undefined : wholeNumber(text, flag, { min: 1, max });
}

/** `--status new,planned`: one value or several separated by commas, each one of `allowed`. */
export function enumList<T extends string>(text: string | undefined, flag: string, allowed: readonly T[]): T[] | undefined {
  if (text === undefined) return undefined;
  const values = [...new Set(text.split(',').map((part) => part.trim()).filter((part) => part !== ''))];
  const wrong = values.filter((value) => !(allowed as readonly string[]).includes(value));
  if (values.length === 0 || wrong.length > 0) {
    const what = values.length === 0 ? 'an empty list' : wrong.map((value) => `"${value}"`).join(', ');
    throw new CliError(`${flag} takes one or more of ${allowed.join(', ')} separated by commas, not ${what}`, EXIT.usage);
  }
  return values as T[];
}

/** The `<id>` of show and vote: not empty (an unknown id is the server's 404, exit 3). */
export function requireId(id: string): string {
  if (id.trim() === '') throw new CliError('<id> must not be empty: give the id of a feedback item (see `feedback list`)', EXIT.usage);
  return id;
}

import { Option, type Command } from 'commander';
import type { FeedbackClient } from '@feedbackd/sdk';
import { readCredentials } from './config-file.js';
import { CliError, EXIT } from './exit-codes.js';

// The API commands' options and the checks of their values. This file loads no SDK: the client
// (undici, zod) is imported only when a command is about to call the API, so that --help,
// --version and usage errors answer at once.

export const DEFAULT_URL = 'http://127.0.0.1:3000';
export const DEFAULT_RETRIES = 2;

/** The commands that call the HTTP API through the SDK; only they take the options below. */
export const API_COMMANDS = ['identify', 'submit', 'list', 'show', 'vote', 'status', 'comment', 'merge', 'delete', 'login', 'whoami'] as const;

/** The options every API command takes, by their commander keys. */
const API_OPTION_KEYS = ['url', 'apiKey', 'retries', 'json'] as const;

/**
 * `--url`, `--api-key`, `--retries` and `--json`. They are added to the program (so that
 * `feedback --json list` works) and to every API command (so that `feedback list --json` works,
 * and `feedback list --help` shows them with their environment variables).
 */
export function addApiOptions(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'base address of the feedback server').env('FEEDBACK_URL').default(DEFAULT_URL))
    .addOption(
      new Option('--api-key <key>', 'API key, sent as x-api-key: pk_, or sk_ for status, comment, merge and delete (prefer the variable: flags show in process lists)').env(
        'FEEDBACK_API_KEY',
      ),
    )
    .addOption(
      new Option('--retries <n>', 'retries of a failed request (connection error, 429, 5xx) before giving up; 0 fails fast')
        .env('FEEDBACK_RETRIES')
        .default(String(DEFAULT_RETRIES)),
    )
    .addOption(new Option('--json', 'print the API response as one JSON document on stdout'));
}

/** Where a value of the API options came from, for `feedback whoami`. */
export type ValueSource = 'flag' | 'environment' | 'login' | 'default';

/** The API options of a command, wherever they were given on the command line. */
export interface ApiFlags {
  url: string;
  apiKey?: string;
  retries: string;
  json: boolean;
  sources: { url: ValueSource; apiKey?: ValueSource };
}

/**
 * Reads the API options of `command`, given either after it (`feedback list --json`) or before it
 * on the program (`feedback --json list`). A flag typed on the command line wins over its
 * environment variable, which wins over what `feedback login` stored, which wins over the default.
 */
export function apiFlags(command: Command): ApiFlags {
  const sourceOf = (key: (typeof API_OPTION_KEYS)[number]): { value: unknown; source?: ValueSource } => {
    for (const place of [command, command.parent]) {
      if (place?.getOptionValueSource(key) === 'cli') return { value: place.getOptionValue(key), source: 'flag' };
    }
    const value: unknown = command.getOptionValue(key);
    const source = command.getOptionValueSource(key);
    return { value, source: source === 'env' ? 'environment' : value === undefined ? undefined : 'default' };
  };
  const url = sourceOf('url');
  const apiKey = sourceOf('apiKey');
  // The stored login fills in what neither a flag nor a variable gave (read only then).
  const stored = url.source === 'default' || apiKey.source === undefined ? readCredentials() : undefined;
  if (stored && url.source === 'default') Object.assign(url, { value: stored.url, source: 'login' });
  // The stored key goes only to the server it was stored for, never to another --url.
  const sameServer = stored !== undefined && sameAddress(String(url.value), stored.url);
  if (stored && sameServer && apiKey.source === undefined) Object.assign(apiKey, { value: stored.apiKey, source: 'login' });
  return {
    url: url.value as string,
    apiKey: apiKey.value as string | undefined,
    retries: sourceOf('retries').value as string,
    json: sourceOf('json').value === true,
    sources: { url: url.source ?? 'default', ...(apiKey.source ? { apiKey: apiKey.source } : {}) },
  };
}

/** Two base addresses that name the same server (case of the host and trailing slashes aside). */
function sameAddress(a: string, b: string): boolean {
  try {
    return new URL(a).href.replace(/\/+$/, '') === new URL(b).href.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/**
 * Throws a usage error when an API option was typed before a command that is not an API command
 * (`feedback --json keys list`), instead of ignoring it silently. Used as a preSubcommand hook.
 */
export function rejectApiOptionsOutsideApiCommands(program: Command, subcommand: Command): void {
  if ((API_COMMANDS as readonly string[]).includes(subcommand.name())) return;
  const typed = API_OPTION_KEYS.filter((key) => program.getOptionValueSource(key) === 'cli');
  if (typed.length === 0) return;
  const flags = typed.map((key) => program.options.find((option) => option.attributeName() === key)?.long ?? key);
  throw new CliError(`${flags.join(', ')} only appl${flags.length === 1 ? 'ies' : 'y'} to ${API_COMMANDS.join(', ')}, not to ${subcommand.name()}`, EXIT.usage);
}

/** The server address of the flags: an http(s) URL; an empty FEEDBACK_URL counts as not set, as an empty DATABASE_URL does. */
export function serverUrl(flags: ApiFlags): string {
  const url = flags.url.trim() || DEFAULT_URL;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new CliError(`--url must be an http:// or https:// address, like ${DEFAULT_URL}, not "${flags.url}"`, EXIT.usage);
  }
  return url.replace(/\/+$/, '');
}

/**
 * Runs `action` with a client for the flags and always closes it; SDK errors become CliErrors
 * with their exit code (sdk-client.ts, loaded here on first use).
 */
export async function withClient<T>(flags: ApiFlags, action: (client: FeedbackClient) => Promise<T>): Promise<T> {
  const { withSdkClient } = await import('./sdk-client.js');
  return withSdkClient(flags, action);
}

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

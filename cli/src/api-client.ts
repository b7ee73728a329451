import { Command, Option } from 'commander';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FeedbackApiError,
  FeedbackClient,
  FeedbackError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from '@feedbackd/sdk';
import { CliError, EXIT } from './exit-codes.js';

export const DEFAULT_URL = 'http://127.0.0.1:3000';
export const DEFAULT_RETRIES = 2;

/** The commands that call the HTTP API through the SDK; only they take the options below. */
export const API_COMMANDS = ['identify', 'submit', 'list', 'show', 'vote', 'status', 'comment', 'merge', 'delete'] as const;

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

/** The API options of a command, wherever they were given on the command line. */
export interface ApiFlags {
  url: string;
  apiKey?: string;
  retries: string;
  json: boolean;
}

/**
 * Reads the API options of `command`, given either after it (`feedback list --json`) or before it
 * on the program (`feedback --json list`). A flag typed on the command line wins over its
 * environment variable, which wins over the default, whichever of the two places holds it.
 */
export function apiFlags(command: Command): ApiFlags {
  const value = (key: (typeof API_OPTION_KEYS)[number]): unknown => {
    if (command.getOptionValueSource(key) === 'cli') return command.getOptionValue(key);
    const parent = command.parent;
    if (parent && parent.getOptionValueSource(key) === 'cli') return parent.getOptionValue(key);
    return command.getOptionValue(key);
  };
  return {
    url: value('url') as string,
    apiKey: value('apiKey') as string | undefined,
    retries: value('retries') as string,
    json: value('json') === true,
  };
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

/** A client for the flags, checked before any request is made. */
export function createClient(flags: ApiFlags): FeedbackClient {
  const url = serverUrl(flags);
  const apiKey = flags.apiKey?.trim();
  if (!apiKey) throw new CliError('no API key: pass --api-key or set FEEDBACK_API_KEY (`feedback keys create` makes one)', EXIT.usage);
  const retries = /^\d{1,2}$/.test(flags.retries.trim()) ? Number(flags.retries.trim()) : Number.NaN;
  if (!(retries >= 0 && retries <= 10)) throw new CliError(`--retries must be a whole number from 0 to 10, not "${flags.retries}"`, EXIT.usage);
  try {
    return new FeedbackClient({ baseUrl: url, apiKey, maxRetries: retries });
  } catch (error) {
    // The SDK checks its options too; anything it refuses is a usage error here.
    if (error instanceof FeedbackError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/**
 * Runs `action` with a client for the flags and always closes it, so that the process ends as
 * soon as the command is done. Errors of the SDK become CliErrors with their exit code.
 */
export async function withClient<T>(flags: ApiFlags, action: (client: FeedbackClient) => Promise<T>): Promise<T> {
  const client = createClient(flags);
  try {
    return await action(client);
  } catch (error) {
    throw toCliError(error, serverUrl(flags));
  } finally {
    await client.close();
  }
}

/**
 * One clear sentence and an exit code for every error of the SDK: the API's `error` text with the
 * field messages of a 400, or what went wrong on the way to the server.
 */
export function toCliError(error: unknown, url: string): unknown {
  if (error instanceof CliError || !(error instanceof FeedbackError)) return error;
  if (error instanceof BadRequestError) return new CliError(withDetails(error), EXIT.usage);
  if (error instanceof AuthenticationError) {
    return new CliError(`${error.message} (the server at ${url} refused the key; check --api-key or FEEDBACK_API_KEY)`, EXIT.auth);
  }
  if (error instanceof PermissionDeniedError) {
    return new CliError(`${error.message} (this command needs a secret key: \`feedback keys create --secret\` makes one)`, EXIT.auth);
  }
  if (error instanceof NotFoundError) return new CliError(error.message, EXIT.notFound);
  if (error instanceof RateLimitError) {
    const wait = error.retryAfter !== undefined ? `; try again in ${error.retryAfter} s` : '';
    return new CliError(`${error.message} (rate limited by the server${wait})`, EXIT.rateLimited);
  }
  if (error instanceof InternalServerError) return new CliError(`${error.message} (HTTP ${error.status}${requestIdNote(error)})`, EXIT.error);
  if (error instanceof FeedbackApiError) return new CliError(`${error.message} (HTTP ${error.status}${requestIdNote(error)})`, EXIT.error);
  if (error instanceof TimeoutError) return new CliError(`the server at ${url} did not answer in time (${withoutOperation(error.message)})`, EXIT.error);
  if (error instanceof ConnectionError) {
    return new CliError(
      `could not reach the server at ${url} (${withoutOperation(error.message)}); is it running? Set the address with --url or FEEDBACK_URL`,
      EXIT.error,
    );
  }
  if (error instanceof UnexpectedResponseError) return new CliError(`unexpected response from ${url}: ${error.message}`, EXIT.error);
  return new CliError(error.message, EXIT.error);
}

/** "Invalid input: title: Title is required; type: Type must be one of: …" */
function withDetails(error: FeedbackApiError): string {
  const details = error.details;
  if (!details) return error.message;
  const messages = [
    ...details.formErrors,
    ...Object.entries(details.fieldErrors).flatMap(([field, list]) => list.map((message) => `${field}: ${message}`)),
  ];
  return messages.length === 0 ? error.message : `${error.message}: ${messages.join('; ')}`;
}

/** "feedback.list (GET /api/v1/feedback), attempt 3 of 3: connection failed: …" without the part before "connection failed". */
function withoutOperation(message: string): string {
  return message.replace(/^[\w.]+ \([A-Z]+ [^)]*\)(, attempt \d+ of \d+)?: /, '');
}

function requestIdNote(error: FeedbackApiError): string {
  return error.requestId ? `, request id ${error.requestId}` : '';
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

/** `--page`, `--limit`: a whole number from 1 to `max`. */
export function positiveInteger(text: string | undefined, flag: string, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d{1,10}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value >= 1 && value <= max)) throw new CliError(`${flag} must be a whole number from 1 to ${max}, not "${text}"`, EXIT.usage);
  return value;
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

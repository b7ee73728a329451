import { Option, type Command } from 'commander';
import { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES } from '@feedbackd/sdk/constants';
import { readCredentials } from './config-file.js';
import { CliError, EXIT } from './exit-codes.js';

// The options of the commands that call the API, and where their values come from. This file
// loads no SDK client: the client (undici, zod) is imported only when a command is about to call
// the API (api-call.ts), so that --help, --version and usage errors answer at once. The defaults
// are the SDK's own.

/**
 * The commands that call the HTTP API through the SDK, and the key each needs: the one list that
 * the help texts and the check of misplaced options read. buildProgram checks it against the
 * commands that take the API options, so a new API command cannot be left out.
 */
export const API_COMMANDS = {
  identify: 'public',
  submit: 'public',
  list: 'public',
  similar: 'public',
  show: 'public',
  vote: 'public',
  status: 'secret',
  comment: 'public',
  subscribe: 'public',
  unsubscribe: 'public',
  subscribers: 'secret',
  merge: 'secret',
  delete: 'secret',
  login: 'public',
  whoami: 'public',
  webhooks: 'secret',
  changelog: 'secret',
  notifications: 'secret',
  open: 'secret',
  moderation: 'secret',
} as const satisfies Record<string, 'public' | 'secret'>;

/** The API commands that need a secret key, as a phrase: "status, comment, merge and delete". */
export function secretKeyCommands(): string {
  const names = Object.entries(API_COMMANDS)
    .filter(([, key]) => key === 'secret')
    .map(([name]) => name);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** True when `command` takes the API options (addApiOptions was applied to it). */
export function takesApiOptions(command: Command): boolean {
  return command.options.some((option) => option.long === '--api-key');
}

/** The options every API command takes, by their commander keys. */
const API_OPTION_KEYS = ['url', 'apiKey', 'retries', 'json'] as const;

/** The Option objects addApiOptions made: a command's own `--url` (a webhook's address) is not one of them. */
const API_OPTIONS = new WeakSet<Option>();

/**
 * `--url`, `--api-key`, `--retries` and `--json`. They are added to the program (so that
 * `feedback --json list` works) and to every API command (so that `feedback list --json` works,
 * and `feedback list --help` shows them with their environment variables). A command whose own
 * `--url` means something else (`webhooks create --url`: the endpoint) takes `serverUrl: false`:
 * its server address comes from FEEDBACK_URL, the stored login, or `feedback --url ...` before it.
 */
export function addApiOptions(command: Command, { serverUrl = true }: { serverUrl?: boolean } = {}): Command {
  const options = [
    ...(serverUrl ? [new Option('--url <url>', 'base address of the feedback server').env('FEEDBACK_URL').default(DEFAULT_BASE_URL)] : []),
    new Option('--api-key <key>', `API key, sent as x-api-key: pk_, or sk_ for ${secretKeyCommands()} (prefer the variable: flags show in process lists)`).env('FEEDBACK_API_KEY'),
    new Option('--retries <n>', 'retries of a failed request (connection error, 429, 5xx) before giving up; 0 fails fast').env('FEEDBACK_RETRIES').default(String(DEFAULT_MAX_RETRIES)),
    new Option('--json', 'print the API response as one JSON document on stdout'),
  ];
  for (const option of options) {
    API_OPTIONS.add(option);
    command.addOption(option);
  }
  return command;
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
    // The command, then its parents up to the program (`feedback --json webhooks list`), each only
    // where its option of that name is the API option.
    const owners: Command[] = [];
    for (let place: Command | null = command; place; place = place.parent) {
      if (place.options.some((option) => API_OPTIONS.has(option) && option.attributeName() === key)) owners.push(place);
    }
    for (const place of owners) {
      if (place.getOptionValueSource(key) === 'cli') return { value: place.getOptionValue(key), source: 'flag' };
    }
    const value: unknown = owners[0]?.getOptionValue(key);
    const source = owners[0]?.getOptionValueSource(key);
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
  if (Object.hasOwn(API_COMMANDS, subcommand.name())) return;
  const typed = API_OPTION_KEYS.filter((key) => program.getOptionValueSource(key) === 'cli');
  if (typed.length === 0) return;
  const flags = typed.map((key) => program.options.find((option) => option.attributeName() === key)?.long ?? key);
  throw new CliError(`${flags.join(', ')} only appl${flags.length === 1 ? 'ies' : 'y'} to ${Object.keys(API_COMMANDS).join(', ')}, not to ${subcommand.name()}`, EXIT.usage);
}

/** The server address of the flags: an http(s) URL; an empty FEEDBACK_URL counts as not set, as an empty DATABASE_URL does. */
export function serverUrl(flags: ApiFlags): string {
  const url = flags.url.trim() || DEFAULT_BASE_URL;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new CliError(`--url must be an http:// or https:// address, like ${DEFAULT_BASE_URL}, not "${flags.url}"`, EXIT.usage);
  }
  return url.replace(/\/+$/, '');
}

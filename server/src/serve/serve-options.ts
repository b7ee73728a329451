import { availableParallelism } from 'node:os';
import { redactUrl, type ConnectionOptions, type Database, type DatabaseLocation } from '../db/database.js';
import type { Logger } from '../logger.js';
import { DEFAULT_NOTIFY_WINDOW_SECONDS, DEFAULT_RATE_LIMIT, DEFAULT_WEBHOOKS_PER_SECOND, DRAIN_TIMEOUT_MS, FAILED_AUTH_LIMIT } from '../serve-defaults.js';
import type { MachineJobOptions } from '../jobs/machine-jobs.js';
import { exactOrigin } from '../origins.js';
import { notifyHoldSeconds } from '../domain/notifications/holds.sql.js';
import { connectionLimits, type ConnectionLimits } from './http-server.js';

export interface ServeOptions extends DatabaseLocation {
  port: number;
  host: string;
  /** Apply pending migrations before listening (default true). */
  migrate?: boolean;
  /** The voter secret, as FEEDBACK_VOTER_SECRET gives it (db/voter-secret.ts); absent: that variable, or where it is kept. */
  voterSecret?: string;
  logger?: Logger;
  /** How long close() lets in-flight requests finish before cutting connections. */
  drainTimeoutMs?: number;
  /** Check every reply against the contract (tests). */
  validateResponses?: boolean;
  /** Requests per minute per API key (default 100, spec part 8), or 'off' when something else limits. */
  rateLimit?: number | 'off';
  /** Reverse proxies to trust for the caller's IP (X-Forwarded-For); 0 or absent ignores the header. */
  trustProxy?: number;
  /** Unknown or revoked keys per address per minute before the address is refused (default 30), or 'off'. */
  failedAuthLimit?: number | 'off';
  /**
   * Keep the rate limit in this Redis, so it is exact across instances; without it each machine
   * counts on its own (exact across its workers).
   */
  redisUrl?: string;
  /** How long a request may take to arrive, and open connections per address (serve-defaults.ts has the defaults). */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Serve Prometheus metrics at GET /metrics on this port of `host` (0 picks a free one); absent,
   * nothing is recorded and nothing listens. Never the API's port.
   */
  metricsPort?: number;
  /** Called once, on the first start with an empty database, with the key minted for it. */
  onFirstKey?: (key: string) => void;
  /** Allow webhook endpoints on loopback and private networks (`--webhooks-allow-private`; default false). */
  webhooksAllowPrivate?: boolean;
  /** The webhook sender's pace, attempts a second at most from this machine (`--webhooks-per-second`; default 100). */
  webhooksPerSecond?: number;
  /**
   * The origin the public reaches the server at (`--public-url`, `https://feedback.example.com`):
   * the board's and the team's pages answer only for its host (a Host allow-list) and redirect to
   * it. Absent, they answer any host, as their own origin.
   */
  publicUrl?: string;
  /**
   * The shortest time, in ms, between showing the board's comment or submit form and its post
   * (web/kit/form-guard.ts; default 3,000): a post sooner is refused as a bot's. Tests set 0.
   */
  boardMinFillMs?: number;
  /**
   * How long, in ms, the board trusts a project's settings without reading them again
   * (web/board/projects.ts; default 1,000). For tests that change them from outside the server
   * and would otherwise wait a second for it to see the change; no flag sets it.
   */
  boardProjectCacheTtlMs?: number;
  /**
   * How long, in ms, the API trusts a key it has looked up (http/access.ts; default 1,000): the
   * bound on how long a revoked key still works. For tests that revoke keys; no flag sets it.
   */
  keyCacheTtlMs?: number;
  /** The notifications' mail server (`--smtp-url`, smtp://user:pass@host:port); absent, no mail is sent (docs/notifications.md). */
  smtpUrl?: string;
  /** The mail's sender (`--mail-from`, "Acme <feedback@acme.example>"); needed with smtpUrl. */
  mailFrom?: string;
  /** Seconds a recipient's changes wait to leave as one message (`--notify-window`; default 600, 0 sends at once). */
  notifyWindowSeconds?: number;
}

/** Pipelined hot connections to PostgreSQL per core of this machine, for all serving processes together. */
const HOT_LANES_PER_CORE = 2;

/**
 * How many hot connections one serving process opens.
 * - PGlite runs one statement at a time: a few connections let requests queue at the database
 *   rather than at the pool.
 * - PostgreSQL: pipelined lanes (db/pipelined-pool.ts), about 2 per core in all and at least 2 per
 *   process. A lane keeps its backend busy while queries wait on it, so a few per core keep the
 *   cores busy; more only add backends that wake, run and sleep in turn. Measured on 2 cores with
 *   the side-by-side benchmark and one worker (docs/operations.md): 4 lanes were ahead of 12.
 */
export function hotPoolSize(database: Pick<Database, 'kind'>, processes: number, cores: number = availableParallelism()): number {
  if (database.kind === 'embedded') return Math.max(2, Math.ceil(4 / processes));
  return Math.max(2, Math.ceil((HOT_LANES_PER_CORE * cores) / processes));
}

/**
 * What one serving process is told, every default applied. Plain data: a cluster's primary hands
 * it to each of its workers (cluster/worker-config.ts), and the process that serves alone gives it
 * to itself, so both serve from the same settings.
 */
export interface ProcessSettings {
  database: { kind: Database['kind']; connection: ConnectionOptions };
  /** Hot connections of this process (hotPoolSize). */
  poolMax: number;
  port: number;
  host: string;
  rateLimit: number | 'off';
  /** Where the rate limit is counted across instances (absent: the machine's own bank). */
  redisUrl?: string;
  trustProxy: number;
  failedAuthLimit: number | 'off';
  drainTimeoutMs: number;
  connectionLimits: ConnectionLimits;
  webhooksAllowPrivate: boolean;
  webhooksPerSecond: number;
  /** The public origin, checked (publicOrigin); absent: none was given. */
  publicUrl?: string;
  /** The notifications' mail, when an SMTP server was given. */
  mail?: { smtpUrl: string; from: string; windowSeconds: number };
  /** How long the team's bulk changes hold their notifications, in seconds (domain/notifications/holds.sql.ts: the notify window, at most the Undo's time). */
  notifyHoldSeconds: number;
  /** The voter secret (db/voter-secret.ts) in base64url, read once by the process that prepared the database, handed to each worker. */
  voterSecret: string;
  /** The board forms' shortest fill time in ms; absent: the default. */
  boardMinFillMs?: number;
  /** The board's project cache's time to live in ms; absent: the default. */
  boardProjectCacheTtlMs?: number;
  /** The API's key cache's time to live in ms; absent: the default. */
  keyCacheTtlMs?: number;
}

/** The settings of each of the `processes` that serve `options` on `database`. */
export function processSettings(options: ServeOptions, database: Pick<Database, 'kind' | 'connection'>, processes: number, voterSecret: Buffer): ProcessSettings {
  return {
    voterSecret: voterSecret.toString('base64url'),
    database: { kind: database.kind, connection: database.connection },
    poolMax: hotPoolSize(database, processes),
    port: options.port,
    host: options.host,
    rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
    redisUrl: options.redisUrl,
    trustProxy: options.trustProxy ?? 0,
    failedAuthLimit: options.failedAuthLimit ?? FAILED_AUTH_LIMIT,
    drainTimeoutMs: options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS,
    connectionLimits: connectionLimits(options.connectionLimits),
    webhooksAllowPrivate: options.webhooksAllowPrivate ?? false,
    webhooksPerSecond: options.webhooksPerSecond ?? DEFAULT_WEBHOOKS_PER_SECOND,
    ...(options.publicUrl === undefined ? {} : { publicUrl: publicOrigin(options.publicUrl) }),
    ...(options.boardMinFillMs === undefined ? {} : { boardMinFillMs: options.boardMinFillMs }),
    ...(options.boardProjectCacheTtlMs === undefined ? {} : { boardProjectCacheTtlMs: options.boardProjectCacheTtlMs }),
    ...(options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs }),
    ...(options.smtpUrl ? { mail: mailSettings(options.smtpUrl, options.mailFrom, options.notifyWindowSeconds) } : {}),
    // Without a mail server the window still decides how long a held change waits for its Undo.
    notifyHoldSeconds: notifyHoldSeconds(options.notifyWindowSeconds ?? DEFAULT_NOTIFY_WINDOW_SECONDS),
  };
}

/** The mail's settings, checked: a mail server needs a sender, and the window is whole seconds. */
function mailSettings(smtpUrl: string, from: string | undefined, windowSeconds = DEFAULT_NOTIFY_WINDOW_SECONDS): NonNullable<ProcessSettings['mail']> {
  if (!/^smtps?:\/\//.test(smtpUrl)) throw new InvalidMailSettingsError(`--smtp-url must be smtp://… or smtps://…, not "${redactUrl(smtpUrl)}"`);
  if (!from?.trim()) throw new InvalidMailSettingsError('--mail-from is needed with --smtp-url: the sender of the notifications, such as "Acme <feedback@acme.example>"');
  if (!Number.isInteger(windowSeconds) || windowSeconds < 0) throw new InvalidMailSettingsError(`--notify-window must be a whole number of seconds, 0 or more, not "${windowSeconds}"`);
  return { smtpUrl, from: from.trim(), windowSeconds };
}

export class InvalidMailSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMailSettingsError';
  }
}

/**
 * What the machine's jobs are given (jobs/machine-jobs.ts): the webhook sender's settings, and the
 * mail's, whose links go to the public URL or else to where this server listens.
 */
export function machineJobOptions(settings: ProcessSettings, url: string): MachineJobOptions {
  return {
    webhooksAllowPrivate: settings.webhooksAllowPrivate,
    webhooksPerSecond: settings.webhooksPerSecond,
    mail: settings.mail && { ...settings.mail, origin: settings.publicUrl ?? url, serverSecret: settings.voterSecret },
    notifyHoldSeconds: settings.notifyHoldSeconds,
  };
}

/** `--public-url` as the origin it names; anything but one exact http(s) origin is InvalidPublicUrlError. */
export function publicOrigin(given: string): string {
  const origin = exactOrigin(given.trim());
  if (origin === undefined) throw new InvalidPublicUrlError(given);
  return origin;
}

export class InvalidPublicUrlError extends Error {
  constructor(given: string) {
    super(`--public-url must be the origin the public reaches the server at: http:// or https://, one host, maybe a port, no path (https://feedback.example.com), not "${given}"`);
    this.name = 'InvalidPublicUrlError';
  }
}

/** The line that says a `serve` is up, the same for one process and for a cluster. */
export function logListening(logger: Logger, settings: ProcessSettings, serving: { url: string; metricsUrl: string | undefined; workers: number }): void {
  logger.info('listening', {
    url: serving.url,
    metricsUrl: serving.metricsUrl,
    rateLimit: settings.rateLimit,
    rateLimitStore: rateLimitStore(settings.redisUrl),
    trustProxy: settings.trustProxy,
    failedAuthLimit: settings.failedAuthLimit,
    // Said at every start: it opens the private network to whoever may create a webhook.
    ...(settings.webhooksAllowPrivate ? { webhooksAllowPrivate: true } : {}),
    webhooksPerSecond: settings.webhooksPerSecond,
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.mail ? { mail: redactUrl(settings.mail.smtpUrl), notifyWindow: settings.mail.windowSeconds } : {}),
    workers: serving.workers,
  });
}

/** Where the rate limit is counted, as the "listening" log line says it. */
function rateLimitStore(redisUrl: string | undefined): string {
  return redisUrl ? redactUrl(redisUrl) : 'this machine';
}

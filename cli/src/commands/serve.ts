import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import type { LogLevel } from '@feedbackd/server';
import { DEFAULT_PORT } from '@feedbackd/sdk/constants';
import { DEFAULT_BOARD_MIN_FILL_SECONDS, DEFAULT_CONNECTION_LIMITS, DEFAULT_NOTIFY_WINDOW_SECONDS, DEFAULT_RATE_LIMIT, DEFAULT_WEBHOOKS_PER_SECOND, DRAIN_TIMEOUT_MS, FAILED_AUTH_LIMIT } from '@feedbackd/server/serve-defaults';
import { wholeNumber } from '../flag-values.js';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { CLI_VERSION } from '../version.js';
import { defaultWorkers } from '../workers.js';

// The defaults the server applies, from the module of its package that loads nothing else, so
// that `feedback serve --help` shows them without loading the server stack.
const { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerIp } = DEFAULT_CONNECTION_LIMITS;

/** Hard stop if draining and closing the database take longer than this after a signal. */
const SHUTDOWN_DEADLINE_MS = DRAIN_TIMEOUT_MS + 2_000;

interface ServeFlags extends DatabaseFlags {
  port: string;
  host: string;
  migrate: boolean;
  logLevel: LogLevel;
  rateLimit: string;
  failedAuthLimit: string;
  trustProxy?: string | boolean;
  workers?: string;
  redisUrl?: string;
  headersTimeout: string;
  requestTimeout: string;
  maxConnectionsPerIp: string;
  metricsPort?: string;
  webhooksAllowPrivate?: boolean;
  webhooksPerSecond?: string;
  publicUrl?: string;
  boardMinFill?: string;
  smtpUrl?: string;
  mailFrom?: string;
  notifyWindow: string;
}

export function serveCommand(output: Output): Command {
  const command = new Command('serve')
    .description('Start the API server (applies pending migrations first)')
    .addOption(new Option('-p, --port <port>', 'port to listen on').env('FEEDBACK_PORT').default(String(DEFAULT_PORT)))
    .addOption(new Option('--host <host>', 'address to listen on').env('FEEDBACK_HOST').default('127.0.0.1'));
  addDatabaseOptions(command)
    .addOption(new Option('--no-migrate', 'do not apply pending migrations on start').env('FEEDBACK_NO_MIGRATE'))
    .addOption(
      new Option('--log-level <level>', 'least severe log level printed').choices(['debug', 'info', 'warn', 'error']).env('FEEDBACK_LOG_LEVEL').default('info'),
    )
    .addOption(new Option('--rate-limit <n>', 'requests per minute allowed per API key, or "off" when a proxy or gateway limits instead').env('FEEDBACK_RATE_LIMIT').default(String(DEFAULT_RATE_LIMIT)))
    .addOption(
      new Option(
        '--failed-auth-limit <n>',
        'unknown or revoked API keys one address may send per minute before every request from it (valid keys included) gets 429 until the minute ends, or "off" when a proxy or gateway in front stops key guessing',
      )
        .env('FEEDBACK_FAILED_AUTH_LIMIT')
        .default(String(FAILED_AUTH_LIMIT)),
    )
    .addOption(
      new Option(
        '--trust-proxy [hops]',
        'behind reverse proxies: take the caller IP (anonymous votes) from X-Forwarded-For, trusting this many proxies (1 when no number is given); without it the header is ignored',
      ).env('FEEDBACK_TRUST_PROXY'),
    )
    .addOption(
      new Option(
        '--workers <n>',
        'processes serving HTTP on the one port (default: one per core for a PostgreSQL on another machine, half the cores for one on this machine, 1 on the embedded database, which runs one query at a time)',
      ).env('FEEDBACK_WORKERS'),
    )
    .addOption(
      new Option(
        '--redis-url <url>',
        'keep the rate limit in this Redis, exact across several instances (without it each machine counts alone)',
      ).env('REDIS_URL'),
    )
    .addOption(
      new Option('--headers-timeout <seconds>', 'seconds a client has to send the request line and headers; a slower one is answered 408 and closed')
        .env('FEEDBACK_HEADERS_TIMEOUT')
        .default(String(headersTimeoutMs / 1000)),
    )
    .addOption(
      new Option(
        '--request-timeout <seconds>',
        'seconds a client has to send a whole request, body included; a slower one is answered 408 and closed (the time the server takes to answer is not limited)',
      )
        .env('FEEDBACK_REQUEST_TIMEOUT')
        .default(String(requestTimeoutMs / 1000)),
    )
    .addOption(
      new Option(
        '--max-connections-per-ip <n>',
        'open connections one address may hold on each serving process; more are answered 503 and closed; "off" for no cap (behind a proxy, every connection comes from the proxy)',
      )
        .env('FEEDBACK_MAX_CONNECTIONS_PER_IP')
        .default(String(maxConnectionsPerIp)),
    )
    .addOption(
      new Option(
        '--metrics-port <port>',
        'serve Prometheus metrics at GET /metrics on this port of --host, apart from the API port (summed over every worker); without it none are recorded',
      ).env('FEEDBACK_METRICS_PORT'),
    )
    .addOption(
      new Option(
        '--webhooks-allow-private',
        'let webhook endpoints be on loopback and private networks (refused by default: a key that may create webhooks could otherwise reach inside your network)',
      ).env('FEEDBACK_WEBHOOKS_ALLOW_PRIVATE'),
    )
    .addOption(
      new Option(
        '--webhooks-per-second <n>',
        'webhook attempts a second at most from this machine: a burst of events leaves as a steady stream, and the rest waits in the outbox',
      )
        .env('FEEDBACK_WEBHOOKS_PER_SECOND')
        .default(String(DEFAULT_WEBHOOKS_PER_SECOND)),
    )
    .addOption(
      new Option(
        '--public-url <url>',
        "the origin the public reaches the server at (https://feedback.example.com): the board's and the team's pages then answer only requests for its host (a Host allow-list against DNS rebinding), take form posts only from it, and redirect to it",
      ).env('FEEDBACK_PUBLIC_URL'),
    )
    .addOption(
      new Option(
        '--board-min-fill <seconds>',
        "shortest time between showing the board's comment or submit form and its post: a post sooner is refused as a bot's, the form coming back filled (0 turns the check off; a form still needs its signed stamp)",
      )
        .env('FEEDBACK_BOARD_MIN_FILL')
        .default(String(DEFAULT_BOARD_MIN_FILL_SECONDS)),
    )
    .addOption(
      new Option('--smtp-url <url>', "the mail server of the notifications' email (smtp://user:pass@host:587, smtps:// for TLS at once); without it no mail is sent").env('FEEDBACK_SMTP_URL'),
    )
    .addOption(new Option('--mail-from <address>', 'the sender of the notifications\' email, such as "Acme <feedback@acme.example>" (needed with --smtp-url)').env('FEEDBACK_MAIL_FROM'))
    .addOption(
      new Option('--notify-window <seconds>', "how long a person's notifications wait to leave as one message (0 sends each at once); a team bulk change is held as long for its Undo, 600 at most")
        .env('FEEDBACK_NOTIFY_WINDOW')
        .default(String(DEFAULT_NOTIFY_WINDOW_SECONDS)),
    )
    .action(async (flags: ServeFlags) => serve(flags, output));
  return command;
}

async function serve(flags: ServeFlags, output: Output): Promise<void> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a number from 0 to 65535, not "${flags.port}"`, EXIT.usage);
  const rateLimit = rateLimitFlag(flags.rateLimit);
  const failedAuthLimit = limitOrOff(flags.failedAuthLimit, '--failed-auth-limit');
  const trustProxy = trustedProxies(flags.trustProxy);
  const location = databaseLocation(flags);
  const workers = flags.workers === undefined ? defaultWorkers(location.databaseUrl) : wholeNumber(flags.workers, '--workers', { min: 1 });
  const webhooksPerSecond = wholeNumber(flags.webhooksPerSecond ?? String(DEFAULT_WEBHOOKS_PER_SECOND), '--webhooks-per-second', { min: 1, max: 100_000 });
  const connectionLimits = connectionLimitFlags(flags);
  const metricsPort = metricsPortFlag(flags.metricsPort, port);
  const boardMinFillMs = wholeNumber(flags.boardMinFill ?? String(DEFAULT_BOARD_MIN_FILL_SECONDS), '--board-min-fill', { min: 0, max: 600 }) * 1000;
  const notifyWindowSeconds = wholeNumber(flags.notifyWindow, '--notify-window', { min: 0, max: 7 * 86_400 });
  const smtpUrl = flags.smtpUrl?.trim() || undefined;
  // Checked here, before a database is opened; the value is not echoed (it may hold a password).
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new CliError('--smtp-url must be smtp://… or smtps://…, such as smtp://user:pass@mail.example.com:587', EXIT.usage);
  if (smtpUrl && !flags.mailFrom?.trim()) throw new CliError('--mail-from is needed with --smtp-url: the sender of the notifications, such as "Acme <feedback@acme.example>"', EXIT.usage);
  const startedAt = performance.now();
  const { createLogger, DataDirInUseError, embeddedDatabaseExists, InvalidMailSettingsError, InvalidPublicUrlError, publicOrigin, startCluster, startServer } = await import('@feedbackd/server');
  // `--public-url` (or FEEDBACK_PUBLIC_URL; empty is none), checked by the server's own rule before any database is touched.
  let publicUrl: string | undefined;
  try {
    publicUrl = flags.publicUrl?.trim() ? publicOrigin(flags.publicUrl) : undefined;
  } catch (error) {
    if (error instanceof InvalidPublicUrlError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  const firstStart = !location.databaseUrl && !embeddedDatabaseExists(location.dataDir);
  if (firstStart) {
    output.err(`First start: creating the embedded database in ${resolve(location.dataDir)}. It usually takes 4 to 30 seconds, depending on the machine, and happens once; later starts take about a second.`);
  }
  // pino straight to stderr, asynchronously (readable on a terminal, JSON lines when piped).
  const logger = createLogger({ level: flags.logLevel });
  let server;
  let firstKey: string | undefined;
  const options = {
    ...location,
    port,
    host: flags.host,
    migrate: flags.migrate,
    rateLimit,
    failedAuthLimit,
    redisUrl: redisUrlFlag(flags.redisUrl),
    trustProxy,
    logger,
    logLevel: flags.logLevel,
    drainTimeoutMs: DRAIN_TIMEOUT_MS,
    connectionLimits,
    metricsPort,
    webhooksAllowPrivate: flags.webhooksAllowPrivate === true,
    webhooksPerSecond,
    publicUrl,
    boardMinFillMs,
    smtpUrl,
    mailFrom: flags.mailFrom,
    notifyWindowSeconds,
    onFirstKey: (key: string) => {
      firstKey = key;
    },
  };
  try {
    server = workers > 1 ? await startCluster({ ...options, workers }) : await startServer(options);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new CliError(error.message);
    if (error instanceof InvalidMailSettingsError) throw new CliError(error.message, EXIT.usage);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`port ${port} on ${flags.host} is already in use (choose another with --port)`);
    throw error;
  }

  const running = server;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  if (firstStart) output.err(`Created the embedded database in ${seconds} s.`);
  // Printed once listening, so that the example names the real address (also with --port 0).
  if (firstKey) output.out(firstKeyMessage(firstKey, running.url));
  output.err(`feedback ${CLI_VERSION} is ready at ${running.url} (${workers} worker${workers === 1 ? '' : 's'}, started in ${seconds} s; stop with Ctrl-C or SIGTERM)`);
  if (running.metricsUrl) output.err(`Prometheus metrics at ${running.metricsUrl}/metrics`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info('signal received', { signal });
      // A second signal, or a shutdown past the deadline, ends the process at once.
      process.once('SIGINT', () => process.exit(EXIT.error));
      process.once('SIGTERM', () => process.exit(EXIT.error));
      setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        logger.flush?.();
        process.exit(EXIT.error);
      }, SHUTDOWN_DEADLINE_MS).unref();
      running.close().then(resolve, (error: unknown) => {
        logger.error('error while shutting down', { error: String(error) });
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  logger.flush?.();
}

/** `--redis-url`: checked here, so a typo is a usage error and not a silent limit per machine. */
function redisUrlFlag(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new CliError(`--redis-url must be a URL such as redis://127.0.0.1:6379, not "${text}"`, EXIT.usage);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new CliError(`--redis-url must start with redis:// or rediss://, not "${text}"`, EXIT.usage);
  return url.toString();
}

/** `--metrics-port`: a port other than the API's (0, a free one, is always apart from it), or none. */
function metricsPortFlag(text: string | undefined, apiPort: number): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const port = wholeNumber(text, '--metrics-port', { min: 0, max: 65535 });
  if (port !== 0 && port === apiPort) throw new CliError(`--metrics-port must differ from --port (${apiPort}): the metrics never share the API's port`, EXIT.usage);
  return port;
}

/** `--rate-limit`: a whole number of requests per minute per key, or `off`. */
function rateLimitFlag(text: string): number | 'off' {
  return limitOrOff(text, '--rate-limit');
}

/** A limit flag: a whole number of at least 1, or `off`. */
function limitOrOff(text: string, flag: string): number | 'off' {
  return text.trim().toLowerCase() === 'off' ? 'off' : wholeNumber(text, flag, { min: 1, alternative: 'off' });
}

/** `--headers-timeout`, `--request-timeout` (whole seconds) and `--max-connections-per-ip` (a number, or `off`). */
function connectionLimitFlags(flags: ServeFlags): { headersTimeoutMs: number; requestTimeoutMs: number; maxConnectionsPerIp: number } {
  const headersTimeout = wholeNumber(flags.headersTimeout, '--headers-timeout', { min: 1, max: 3_600 });
  const requestTimeout = wholeNumber(flags.requestTimeout, '--request-timeout', { min: 1, max: 3_600 });
  if (headersTimeout > requestTimeout) {
    throw new CliError(`--headers-timeout (${headersTimeout} s) must not be longer than --request-timeout (${requestTimeout} s): the headers are part of the request`, EXIT.usage);
  }
  const cap = flags.maxConnectionsPerIp.trim().toLowerCase();
  const maxConnectionsPerIp = cap === 'off' ? 0 : wholeNumber(cap, '--max-connections-per-ip', { min: 1, alternative: 'off' });
  return { headersTimeoutMs: headersTimeout * 1_000, requestTimeoutMs: requestTimeout * 1_000, maxConnectionsPerIp };
}

/** `--trust-proxy` alone means one proxy; `--trust-proxy=N` (or FEEDBACK_TRUST_PROXY=N) means N. */
function trustedProxies(flag: string | boolean | undefined): number {
  if (flag === undefined || flag === false || flag === 'false') return 0;
  if (flag === true || flag === '' || flag === 'true') return 1;
  return wholeNumber(flag, '--trust-proxy', { min: 0 });
}

function firstKeyMessage(key: string, url: string): string {
  return [
    'First start: created the default project and its first API key. It is shown only this once:',
    '',
    `  ${key}`,
    '',
    'Send it in the x-api-key header, for example:',
    `  curl -X POST ${url}/api/v1/identify -H 'x-api-key: ${key}' -H 'content-type: application/json' -d '{"externalId":"user-1"}'`,
    'Mint more keys with `feedback keys create`.',
    '',
  ].join('\n');
}

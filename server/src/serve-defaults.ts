/**
 * The defaults of `feedback serve`, in one place that imports nothing of the server stack: the
 * server applies them, and the CLI shows them in `feedback serve --help` (through the export path
 * `@feedbackd/server/serve-defaults`) without loading Koa, MikroORM or the database driver.
 */
import { RATE_LIMIT_PER_MINUTE } from '@feedbackd/sdk/constants';

/** The project a first start makes, whose key is printed, and which commands use when none is named. */
export const DEFAULT_PROJECT_SLUG = 'default';

/** Requests per minute per API key (spec part 8: the SDK's contract constant). */
export const DEFAULT_RATE_LIMIT = RATE_LIMIT_PER_MINUTE;
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** Unknown or revoked keys one address may send per window before it is refused (limits/failed-auth.ts). */
export const FAILED_AUTH_LIMIT = 30;
export const FAILED_AUTH_WINDOW_MS = 60_000;

/**
 * How long a caller may take to send a request, and connections per address (serve/http-server.ts):
 * - headers in 10 s: a few hundred bytes, which any live client sends at once;
 * - the whole request in 30 s: a body at the 1 MB limit still arrives over a link of about 35 KB/s,
 *   a tenth of Node's own 300 s, so a dripping body holds its connection for seconds, not minutes;
 * - 256 connections per address: far above what a browser (6) or a pooled SDK client opens, far
 *   below the thousands a flood needs to exhaust the process's descriptors.
 */
export const DEFAULT_CONNECTION_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnectionsPerIp: 256,
} as const;

/**
 * Webhook attempts a second at most, from one machine (delivery/webhooks/sender.ts). A burst of activity (a
 * flood of votes, a bulk change) leaves as a steady stream instead of a burst of outgoing requests:
 * receivers are not flooded, and sending never takes the API's time at its peak, while the rest
 * waits in the outbox (docs/webhooks.md, "Pace"). 100 a second is 8.6 million a day.
 */
export const DEFAULT_WEBHOOKS_PER_SECOND = 100;

/** How long a recipient's notifications wait to leave as one message, in seconds (`serve --notify-window`). */
export const DEFAULT_NOTIFY_WINDOW_SECONDS = 600;

/** How long a stopping server lets requests in flight finish before it cuts their connections. */
export const DRAIN_TIMEOUT_MS = 8_000;

/**
 * The shortest time, in seconds, between showing a board form (a comment, a new item) and its
 * post (web/kit/form-guard.ts): a person reads and types for longer, a bot posts at once.
 */
export const DEFAULT_BOARD_MIN_FILL_SECONDS = 3;

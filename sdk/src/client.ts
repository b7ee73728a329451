import { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_TIMEOUT_MS } from './contract/constants.js';
import { FeedbackError } from './errors.js';
import { AdminResource } from './resources/admin.js';
import { ChangelogResource } from './resources/changelog.js';
import { NotificationsResource } from './resources/notifications.js';
import { SubscriptionsResource } from './resources/subscriptions.js';
import { CommentsResource } from './resources/comments.js';
import { FeedbackResource } from './resources/feedback.js';
import { ModerationResource } from './resources/moderation.js';
import { UsersResource } from './resources/users.js';
import { VotesResource } from './resources/votes.js';
import { WebhooksResource } from './resources/webhooks.js';
import { checkRetries, checkTimeout, Transport } from './transport.js';
import { SDK_VERSION } from './version.js';


/** Settings of a {@link FeedbackClient}. Every field is optional. */
export interface FeedbackClientOptions {
  /**
   * Where the server is, e.g. `https://feedback.example.com` (a path prefix such as
   * `https://example.com/feedback` works too; a trailing slash is ignored). Default: the
   * `FEEDBACK_URL` environment variable, else `http://127.0.0.1:3000`.
   */
  baseUrl?: string;
  /**
   * The API key, sent as `x-api-key`: a public key (`pk_...`), or a secret key (`sk_...`) for
   * `client.admin`. Default: the `FEEDBACK_API_KEY` environment variable.
   */
  apiKey?: string;
  /** Time limit of one attempt in milliseconds (connect, wait and read the body). Default 10 000. */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx or a connection failure (timeouts included). Default 2; 0 turns retries off. */
  maxRetries?: number;
  /** The longest single wait before a retry, in milliseconds. Default 8 000. */
  maxRetryDelayMs?: number;
  /** Your application's name and version, put in front of the SDK's own `user-agent` (`feedback-sdk/0.2.0 node/20.19.0`). */
  userAgent?: string;
}

/**
 * The client of the feedback API. One instance holds a keep-alive connection pool to one server:
 * create it once, share it, and call {@link FeedbackClient.close} when you are done.
 *
 * @example
 * import { FeedbackClient } from '@feedbackd/sdk';
 *
 * const client = new FeedbackClient({ apiKey: process.env.FEEDBACK_API_KEY });
 * const item = await client.feedback.create({ title: 'Export to CSV' });
 * await client.votes.toggle(item.id, { endUser: { externalId: 'user-42' } });
 * await client.close();
 */
export class FeedbackClient {
  /** The server's address in use: origin plus path prefix, without a trailing slash. */
  readonly baseUrl: string;
  /** End users: `identify`; with a secret key `erase` and `export` (one person's data). */
  readonly users: UsersResource;
  /** Feedback items: `create`, `list`, `listAll`, `get`. */
  readonly feedback: FeedbackResource;
  /** Votes: `toggle`, `get`. */
  readonly votes: VotesResource;
  /** The operator's operations (a secret key only): `update`, `delete`, `addComment`, `deleteComment`, `merge`. */
  readonly admin: AdminResource;
  /** The conversation on items: comments, replies, edits, pins and internal notes (docs/api.md, "Comments"). */
  readonly comments: CommentsResource;
  /** The project's webhook endpoints (secret key). */
  readonly webhooks: WebhooksResource;
  /** The changelog: `list` (any key; a public key sees published entries), `create`, `update`, `publish`, `delete` (secret key). */
  readonly changelog: ChangelogResource;
  /** The moderation queue (secret key): `list`, `approve`, `reject` (docs/moderation.md). */
  readonly moderation: ModerationResource;
  /** The notifications' log: `list`, `retry` failed mail, and the digest `settings` (secret key). */
  readonly notifications: NotificationsResource;
  /** Subscriptions: `subscribe`, `unsubscribe` (an item or the whole project), `get` (any key); `list` an item's subscribers (secret key). */
  readonly subscriptions: SubscriptionsResource;
  readonly #transport: Transport;

  /**
   * @param options Settings; see {@link FeedbackClientOptions}.
   * @throws FeedbackError when there is no API key, or when an option is invalid.
   */
  constructor(options: FeedbackClientOptions = {}) {
    this.baseUrl = resolveBaseUrl(options.baseUrl || process.env.FEEDBACK_URL || DEFAULT_BASE_URL);
    const apiKey = options.apiKey || process.env.FEEDBACK_API_KEY;
    if (!apiKey) throw new FeedbackError('No API key: pass apiKey or set FEEDBACK_API_KEY');
    const base = `feedback-sdk/${SDK_VERSION} node/${process.versions.node}`;
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey,
      timeoutMs: options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : checkTimeout('timeoutMs', options.timeoutMs),
      maxRetries: options.maxRetries === undefined ? DEFAULT_MAX_RETRIES : checkRetries('maxRetries', options.maxRetries),
      maxRetryDelayMs:
        options.maxRetryDelayMs === undefined ? DEFAULT_MAX_RETRY_DELAY_MS : checkDelay('maxRetryDelayMs', options.maxRetryDelayMs),
      userAgent: options.userAgent ? `${options.userAgent} ${base}` : base,
    });
    this.users = new UsersResource(this.#transport);
    this.feedback = new FeedbackResource(this.#transport);
    this.votes = new VotesResource(this.#transport);
    this.admin = new AdminResource(this.#transport);
    this.comments = new CommentsResource(this.#transport);
    this.webhooks = new WebhooksResource(this.#transport);
    this.changelog = new ChangelogResource(this.#transport);
    this.moderation = new ModerationResource(this.#transport);
    this.notifications = new NotificationsResource(this.#transport);
    this.subscriptions = new SubscriptionsResource(this.#transport);
  }

  /**
   * Closes the connection pool: idle connections at once, busy ones as soon as their response has
   * been read; a call waiting to retry stops. Resolves when every connection is closed. Calls made
   * afterwards reject with FeedbackError("client is closed"). Calling it again is harmless.
   */
  close(): Promise<void> {
    return this.#transport.close();
  }
}

/** `http(s)://host[:port][/prefix]` without a trailing slash; anything else is a FeedbackError. */
function resolveBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new FeedbackError(`Invalid baseUrl: ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedbackError(`Invalid baseUrl: ${JSON.stringify(value)} must start with http:// or https://`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new FeedbackError(`Invalid baseUrl: ${JSON.stringify(value)} must not carry credentials, a query or a fragment`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function checkDelay(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new FeedbackError(`${name} must be a number of milliseconds, 0 or more, got ${String(value)}`);
  }
  return value;
}

/**
 * The contract's plain values (enums and limits of spec parts 2.1 and 8), without zod, so that a
 * caller needing only these (the CLI's --help, say) does not pay for loading the schemas.
 * The schemas in enums.ts and feedback.ts are built from these same values.
 */

/** Every FeedbackType of spec 2.1, in the order the error messages list them. */
export const FEEDBACK_TYPES = ['bug', 'idea', 'question', 'other'] as const;
/** Every FeedbackStatus of spec 2.1, in workflow order. */
export const FEEDBACK_STATUSES = ['new', 'under-review', 'planned', 'in-progress', 'completed', 'closed'] as const;
/** Every SortBy of spec 2.1. */
export const SORT_ORDERS = ['newest', 'oldest', 'votes', 'comments'] as const;

/** The languages of the board and the team's pages (BCP 47 tags): a board's default (`locale`) is one of them. */
export const BOARD_LOCALES = ['en', 'fr', 'de', 'es', 'pt-BR', 'ar', 'ja'] as const;

/** Whose posts a project holds for its team (docs/moderation.md): nobody's (the default), those without an identified end user, or every end user's. */
export const MODERATION_MODES = ['none', 'anonymous', 'all'] as const;

/**
 * How long a block of an anonymous author lasts unless the team chose a length (docs/moderation.md,
 * "Blocks"): such a block names the caller's address, which others may share, so it never lasts
 * for good by default. An end user's block lasts until the team lifts it.
 */
export const ADDRESS_BLOCK_DAYS = 30;

/** The longest a block may be given to last, in days (`blockDays`); without one, an end user's block lasts until lifted. */
export const BLOCK_DAYS_MAX = 365;

/** Every webhook event type this version of the contract knows, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES = [
  'feedback.created',
  'feedback.status_changed',
  'feedback.merged',
  'feedback.deleted',
  'vote.added',
  'vote.removed',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'user.erased',
  'changelog.published',
  'notification.created',
  'webhook.test',
] as const;

/** What a notification tells its subscribers (docs/notifications.md). */
export const NOTIFICATION_KINDS = ['status_changed', 'team_reply', 'merged', 'shipped'] as const;
/**
 * Where a notification's mail stands: `pending` (waiting for its window or a retry), `sent`,
 * `failed` (retries spent), `suppressed` (the address was refused for good), `skipped` (no address:
 * the webhook route serves the recipient).
 */
export const MAIL_STATES = ['pending', 'sent', 'failed', 'suppressed', 'skipped'] as const;

/** Longest title accepted, after trimming (spec part 8). */
export const TITLE_MAX_LENGTH = 200;
/** Largest page size (spec part 8); the default is 20. */
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;
/** Most items GET /api/v1/feedback/similar returns; the default is 5 (what a submit form shows). */
export const SIMILAR_LIMIT_MAX = 10;
export const SIMILAR_LIMIT_DEFAULT = 5;
/** Requests per minute per API key unless the operator sets another limit (spec part 8). */
export const RATE_LIMIT_PER_MINUTE = 100;
/** The port of `feedback serve` unless told otherwise: the one DEFAULT_BASE_URL names. */
export const DEFAULT_PORT = 3000;

// The client's defaults, here rather than in client.ts so that the CLI's options can show them
// without loading the client (undici, zod).

/** The server the client talks to when neither `baseUrl` nor `FEEDBACK_URL` says otherwise. */
export const DEFAULT_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;
/** Default time limit of one attempt, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Default number of retries after a 429, a 5xx or a connection failure. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default cap of one wait between attempts, in milliseconds. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 8_000;

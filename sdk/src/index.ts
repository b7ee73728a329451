/**
 * @feedbackd/sdk: the typed client of the feedback API. The wire contract is re-exported here and
 * is also available on its own as `@feedbackd/sdk/contract`.
 *
 * @example
 * import { FeedbackClient, NotFoundError } from '@feedbackd/sdk';
 *
 * const client = new FeedbackClient(); // FEEDBACK_URL and FEEDBACK_API_KEY from the environment
 * const page = await client.feedback.list({ status: ['new', 'planned'], sortBy: 'votes' });
 * await client.close();
 */
import './node-check.js'; // first of all: an old Node is refused before undici loads
export * from './contract/index.js';
export { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_TIMEOUT_MS } from './contract/constants.js';
export { FeedbackClient, type FeedbackClientOptions } from './client.js';
export {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FeedbackApiError,
  FeedbackError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  type ApiErrorInit,
} from './errors.js';
export type { AdminResource } from './resources/admin.js';
export type { ChangelogResource } from './resources/changelog.js';
export type { SubscriptionsResource } from './resources/subscriptions.js';
export type { CommentsResource } from './resources/comments.js';
export type { ModerationResource } from './resources/moderation.js';
export type { WebhooksResource, WebhookWithSecret } from './resources/webhooks.js';
export type { FeedbackResource, ListFeedbackParams, SimilarFeedbackParams } from './resources/feedback.js';
export type { UsersResource } from './resources/users.js';
export type { VotesResource } from './resources/votes.js';
export { type OperationResult, type RequestOptions } from './transport.js';
export { SDK_VERSION } from './version.js';
export {
  BOARD_TOKEN_DEFAULT_SECONDS,
  BOARD_TOKEN_MAX_SECONDS,
  boardSignInLink,
  signBoardToken,
  type BoardSignInLinkOptions,
  type BoardTokenOptions,
  type BoardVisitor,
} from './board-links.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  newWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type SignWebhookInput,
  type VerifyWebhookInput,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from './webhooks.js';

/**
 * @feedbackd/server/testing: internals the project's own tests drive directly (the hot path's
 * statements and batches, the rate limit's bank, the seeder's markers, ...). Not the server's
 * public API: they change whenever the server's insides do, without a major version.
 */
import './runtime-floor.js'; // as in the main entry: an old Node is refused before any other module of the package runs
export { silentLogger } from './logger.js';
export { KEY_CACHE_TTL_MS } from './http/access.js';
export { BOARD_PROJECT_CACHE_TTL_MS } from './web/board/projects.js';
export { requestLogLine } from './http/edge.js';
export { LimitBank, type Grant, type LeaseHolders } from './limits/bank.js';
export { FailedAuthLimit } from './limits/failed-auth.js';
export { LeaseClient } from './limits/lease-client.js';
export { addCommentForTests as addComment, type CommentAuthorInput } from './domain/comments/comments.service.js';
export { listStatement, listValues } from './domain/feedback/lists.js';
export { keywordPatterns } from './domain/feedback/similar.js';
export { hasLink, readableText } from './domain/moderation/links.js';
export { submitBatches, type BatchedSubmission, type Submission, type SubmitBatches } from './domain/feedback/submissions.js';
export { voteBatches, type BatchedToggle, type ToggleRequest, type VoteBatches } from './domain/votes/votes.js';
export {
  DISTINCT_TITLES, NEAR_DUPLICATES, SEED_EPOCH_MS, SEED_MARKERS, markerItemCount, seedItem, seedTitle, voterPoolSize, type SeedMarker, type SeedPlan,
} from './ops/seed/index.js';
export { buildOpenApiDocument } from './openapi.js';
export { OPENAPI_PATH } from './http/keyless-routes.js';
export { mountedRoutes, type MountedRoute } from './http/mounted-routes.js';
export { FAN_OUT_AND_CLAIM, PRUNE_LOG, RECORD_OUTCOMES, WEBHOOK_LOG_DAYS } from './delivery/webhooks/deliveries.sql.js';
export { webhookSender, type SenderOptions } from './delivery/webhooks/sender.js';
export { CLAIM_PULLED, LISTENER_IDLE_HOURS, PRUNE_LISTENERS, PULL_PROBE } from './delivery/webhooks/listeners.sql.js';
export { PULL_POLL_MS } from './delivery/webhooks/pull-waiters.js';
export { WAKEUP_CHANNEL } from './delivery/webhooks/postgres-wake-ups.js';
export { nextDelayMs, RETRY_DELAYS_MS } from './delivery/webhooks/attempts.js';
export { pace } from './delivery/webhooks/pace.js';
export { loadVoterSecret, rekeyLegacyVoterKey, rekeyLegacyVoters } from './db/voter-secret.js';
// The benchmark of the conversation (test/bench/comments.ts) times the detail statement alone.
export { DETAIL, DETAIL_WITH_HISTORY, KEEP_THREAD_FROM } from './domain/feedback/feedback.sql.js';

export { LEASE_SECONDS, mailSender, MAX_ATTEMPTS, RECIPIENTS_PER_CLAIM, SMTP_CONNECTIONS, type MailSender, type MailSenderOptions } from './delivery/mail/mail-sender.js';
export { unsubscribeKey, signUnsubscribe, UNSUBSCRIBE_LINK_DAYS, verifyUnsubscribe } from './domain/subscriptions/unsubscribe-token.js';
export { NOTIFY_HOLD_MAX_SECONDS, RELEASE_DUE } from './domain/notifications/holds.sql.js';

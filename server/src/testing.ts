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

// What the suites of the HTTP layer, the pages and the jobs drive without a server: every test
// imports the built package, never a file of server/src, so no test runs code older than the build.
export { normalOrigin } from './domain/projects/board-settings.service.js';
export { accentProblem, accentStyle, contrast, DARK_THEME, darkThemeAccent, LIGHT_THEME, MIN_CONTRAST, normalColour } from './domain/projects/brand/accent.js';
export { checkLogo, LOGO_MAX_BYTES } from './domain/projects/brand/logo.js';
export { Spool, spoolLines } from './ops/transfer/spool.js';
export { CommentThreads } from './domain/feedback/comment-threads.js';
export { voterKeyOf } from './domain/votes/votes.js';
export { readLock } from './db/embedded/lock-file.js';
export { checkInputLimits, jsonBody } from './http/body.js';
export type { AppContext, AppState } from './http/context.js';
export { edge } from './http/edge.js';
export { toValidationDetails } from './http/errors.js';
export type { IdempotentWrites } from './http/idempotent-writes.js';
export { mount } from './http/mount.js';
export { exactOrigin } from './origins.js';
export { CATALOGUES, LOCALE_INFO, LOCALES, Messages, negotiateLocale, SOURCE_CATALOGUE, type Catalogue, type MessageKey } from './i18n/index.js';
export { runPeriodically } from './jobs/periodic.js';
export type { Logger } from './logger.js';
export { PRUNE_NOTIFICATIONS } from './domain/notifications/log.sql.js';
export { createHttpServer } from './serve/http-server.js';
export { checkWebhookUrl, isPublicAddress, MAX_WEBHOOK_URL_LENGTH, webhookDispatcher, type WebhookDispatcherOptions } from './delivery/webhooks/safe-target.js';

// The pages' parts and views, rendered in test/web/ without a browser or a server.
export { safeReturn, submitForm } from './web/board/actions.js';
export { changelogFeed } from './web/board/changelog-feed.js';
export { page } from './web/board/layout.js';
export type { BoardProject } from './web/board/projects.js';
export { boardPage, type BoardView } from './web/board/views/board-page.js';
export { changelogPage } from './web/board/views/changelog-page.js';
export { conversation } from './web/board/views/comment-parts.js';
export { errorPage } from './web/board/views/error-page.js';
export { itemPage } from './web/board/views/item-page.js';
export { roadmapColumnPage } from './web/board/views/roadmap-column-page.js';
export { roadmapPage } from './web/board/views/roadmap-page.js';
export { submitPage } from './web/board/views/submit-page.js';
export { EncodedPages } from './web/kit/compression.js';
export { CONTRACT_MESSAGES, contractMessage } from './web/kit/contract-messages.js';
export { unsignedGuard } from './web/kit/form-guard.js';
export { returnPathUnder, type FormInput, type FormResult } from './web/kit/forms.js';
export { html, type SafeHtml } from './web/kit/html.js';
export { ENGLISH, I18n, i18nFor } from './web/kit/i18n.js';
export { documentFrame } from './web/kit/layout.js';
export { parseListQuery } from './web/kit/lists.js';
export { markdownHtml } from './web/kit/markdown.js';
export { RenderedPages } from './web/kit/rendered-pages.js';
export { pageNumbers, pagination } from './web/kit/views/list-parts.js';
export { errorSummary, excerpt, EXCERPT_LENGTH, grouped, itemMeta, itemRow, problemsOf, voteButton } from './web/kit/views/parts.js';
export { initials } from './web/kit/views/people.js';
export { threads } from './web/kit/views/thread.js';
export { noticeOf } from './web/team/inbox-notices.js';
export { bulkStatusForm } from './web/team/inbox.js';
export { mergeForm, replyForm, statusForm } from './web/team/items.js';
export { teamErrorPage, teamPage } from './web/team/layout.js';
export { safeTeamReturn } from './web/team/requests.js';
export type { TeamProject } from './web/team/session.js';
export { signInForm } from './web/team/sign-in.js';
export { problemsIn, teamProblem } from './web/team/team-problems.js';
export { teamConversation } from './web/team/views/comment-parts.js';
export { inboxPage, type InboxView } from './web/team/views/inbox-page.js';
export { teamItemPage, type TeamItemView } from './web/team/views/item-page.js';
export { deletePage } from './web/team/views/remove-parts.js';
export { signInPage } from './web/team/views/sign-in-page.js';
export type { PanelState, Tab } from './web/widget/panel-state.js';
export { errorPanel } from './web/widget/views/error-panel.js';
export { panelPage } from './web/widget/views/panel.js';
export { boardTab, changesTab, feedbackTab, mineTab, type MyRequest } from './web/widget/views/tabs.js';

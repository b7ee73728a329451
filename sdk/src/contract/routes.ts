import type { z } from 'zod';
import {
  DeleteFeedbackResponseSchema,
  MergeFeedbackRequestSchema,
  MergeFeedbackResponseSchema,
  UpdateFeedbackRequestSchema,
  UpdateFeedbackResponseSchema,
} from './admin.js';
import {
  CreateFeedbackRequestSchema,
  CreateFeedbackResponseSchema,
  EndUserIdQuerySchema,
  FeedbackIdParamsSchema,
  GetFeedbackResponseSchema,
  ListFeedbackQuerySchema,
  PaginatedFeedbackSchema,
  SimilarFeedbackQuerySchema,
  SimilarFeedbackResponseSchema,
} from './feedback.js';
import {
  AddCommentRequestSchema,
  AddCommentResponseSchema,
  CommentHistoryResponseSchema,
  CommentIdParamsSchema,
  DeleteCommentQuerySchema,
  DeleteCommentResponseSchema,
  ListCommentsResponseSchema,
  UpdateCommentRequestSchema,
  UpdateCommentResponseSchema,
} from './comments.js';
import { BoardSettingsSchema, UpdateBoardRequestSchema } from './board.js';
import {
  ApproveHeldRequestSchema,
  ApproveHeldResponseSchema,
  BlockIdParamsSchema,
  HeldCommentResponseSchema,
  HeldEditResponseSchema,
  HeldFeedbackResponseSchema,
  ModerationQueueResponseSchema,
  PostingBlockListResponseSchema,
  RejectHeldRequestSchema,
  RejectHeldResponseSchema,
  UnblockResponseSchema,
} from './moderation.js';
import {
  ChangelogEntryIdParamsSchema,
  ChangelogEntryResponseSchema,
  ChangelogListResponseSchema,
  CreateChangelogRequestSchema,
  DeleteChangelogResponseSchema,
  ListChangelogQuerySchema,
  PublishChangelogRequestSchema,
  UpdateChangelogRequestSchema,
} from './changelog.js';
import { ListNotificationsQuerySchema, NotificationListResponseSchema, NotificationSettingsSchema, RetryNotificationsRequestSchema, RetryNotificationsResponseSchema } from './notifications.js';
import {
  ListSubscribersQuerySchema,
  ProjectUnsubscribeResponseSchema,
  SubscribeRequestSchema,
  SubscriberListResponseSchema,
  SubscriptionQuerySchema,
  SubscriptionStateSchema,
  UnsubscribeRequestSchema,
} from './subscriptions.js';
import { CreateSignInLinkRequestSchema, SignInLinkResponseSchema } from './team.js';
import { EraseUserQuerySchema, EraseUserResponseSchema, ExternalIdParamsSchema, UserExportSchema } from './user-data.js';
import { IdentifyRequestSchema, IdentifyResponseSchema } from './users.js';
import { ToggleVoteRequestSchema, VoteResultSchema } from './votes.js';
import {
  CreateWebhookRequestSchema,
  DeleteWebhookResponseSchema,
  ListenWebhookRequestSchema,
  PullWebhookDeliveriesRequestSchema,
  PullWebhookDeliveriesResponseSchema,
  ReportWebhookDeliveryRequestSchema,
  RotateWebhookSecretRequestSchema,
  ListWebhookDeliveriesQuerySchema,
  RecoverWebhookRequestSchema,
  RecoverWebhookResponseSchema,
  TestWebhookResponseSchema,
  UpdateWebhookRequestSchema,
  WebhookDeliveryIdParamsSchema,
  WebhookDeliveryListResponseSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliveryResponseSchema,
  WebhookIdParamsSchema,
  WebhookListResponseSchema,
  WebhookResponseSchema,
  WebhookWithSecretResponseSchema,
} from './webhooks.js';

/** One operation of the API: where it lives, what it takes, and what it answers per status. */
export interface RouteDefinition {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /**
   * The kind of key the operation needs: `public` (a `pk_` or an `sk_` key) for the spec's
   * endpoints, `secret` (an `sk_` key only) for the operator's extensions.
   */
  readonly auth: 'public' | 'secret';
  /** One line for the API reference (docs and the OpenAPI document). */
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, z.ZodType>>;
  /**
   * `false` for a POST that takes no Idempotency-Key (the server ignores one, the SDK sends none,
   * the OpenAPI document lists none): one that may wait for long, which must not hold the key's
   * transaction open meanwhile, and whose repeat is harmless; or one whose answer holds a secret
   * (a signing secret, a sign-in token), which an idempotency record would keep and replay.
   */
  readonly idempotencyKey?: false;
  /**
   * `true` for a route whose answer holds a secret (a signing secret, a sign-in token): it is sent
   * with `Cache-Control: no-store`, so no cache, the browser's own or one in between, keeps it.
   * Such a route also takes no Idempotency-Key (`idempotencyKey: false`).
   */
  readonly holdsSecret?: true;
  /**
   * `true` for a route any key may call that still refuses some callers with 403 (the
   * conversation's: a public key's team action, an anonymous comment where they are off, a change
   * by someone other than the author): the OpenAPI document lists its 403.
   */
  readonly refuses?: true;
  /**
   * `true` for a route where a public key acts for an end user only with their signed token in the
   * `X-Feedback-User-Token` header (END_USER_TOKEN_HEADER): the OpenAPI document lists the header.
   */
  readonly endUserToken?: true;
  /**
   * `true` for a route without an id in its path that still answers 404: the end user its body
   * names is unknown to the project (`unsubscribeAll`). The OpenAPI document lists its 404.
   */
  readonly notFound?: true;
}

/**
 * Every operation of spec part 4, and the operator's extensions, keyed by operation name. The
 * server mounts each one; the SDK calls each one.
 */
export const routes = {
  identify: {
    method: 'POST',
    path: '/api/v1/identify',
    auth: 'public',
    summary: 'Create or update an end user (upsert by externalId)',
    body: IdentifyRequestSchema,
    responses: { 200: IdentifyResponseSchema },
  },
  createFeedback: {
    method: 'POST',
    path: '/api/v1/feedback',
    auth: 'public',
    summary: "Submit feedback; counts as the submitter's vote",
    body: CreateFeedbackRequestSchema,
    // 202: the project holds the post for its team (docs/moderation.md); 403: the author was blocked.
    responses: { 201: CreateFeedbackResponseSchema, 202: HeldFeedbackResponseSchema },
    refuses: true,
  },
  listFeedback: {
    method: 'GET',
    path: '/api/v1/feedback',
    auth: 'public',
    summary: 'List feedback with filters, search, sorting and pages',
    query: ListFeedbackQuerySchema,
    responses: { 200: PaginatedFeedbackSchema },
  },
  // An extension (docs/api.md). Its path also matches /feedback/:id, so the server mounts it
  // before getFeedback, whose id check would answer 404 (server/src/public/routes.ts).
  similarFeedback: {
    method: 'GET',
    path: '/api/v1/feedback/similar',
    auth: 'public',
    summary: 'The items whose titles are closest to a title (trigram similarity): near-identical titles first, most votes first, then the others closest first; to vote instead of posting a duplicate',
    query: SimilarFeedbackQuerySchema,
    responses: { 200: SimilarFeedbackResponseSchema },
  },
  getFeedback: {
    method: 'GET',
    path: '/api/v1/feedback/:id',
    auth: 'public',
    summary: 'One feedback item with its comments',
    params: FeedbackIdParamsSchema,
    query: EndUserIdQuerySchema,
    responses: { 200: GetFeedbackResponseSchema },
  },
  toggleVote: {
    method: 'POST',
    path: '/api/v1/feedback/:id/vote',
    auth: 'public',
    summary: 'Vote for an item, or take the vote back',
    params: FeedbackIdParamsSchema,
    body: ToggleVoteRequestSchema,
    responses: { 200: VoteResultSchema },
  },
  getVote: {
    method: 'GET',
    path: '/api/v1/feedback/:id/vote',
    auth: 'public',
    summary: "Whether the caller has voted, and the item's vote count",
    params: FeedbackIdParamsSchema,
    query: EndUserIdQuerySchema,
    responses: { 200: VoteResultSchema },
  },

  // The conversation (docs/api.md, "Comments"), an extension: a public key comments and replies as
  // an end user, and edits or deletes that end user's own comments; a secret key also writes as
  // the team, internal notes and the pinned answer, and reads a comment's edits.
  listComments: {
    method: 'GET',
    path: '/api/v1/feedback/:id/comments',
    auth: 'public',
    summary: "An item's comments as its detail shows them: the pinned answer first, then oldest first (a secret key also sees internal notes)",
    params: FeedbackIdParamsSchema,
    responses: { 200: ListCommentsResponseSchema },
  },
  addComment: {
    method: 'POST',
    path: '/api/v1/feedback/:id/comments',
    auth: 'public',
    summary: 'Comment on an item, or reply to a comment: as an end user (or anonymously where the project allows it); with a secret key also as the team, as an internal note, or pinned',
    params: FeedbackIdParamsSchema,
    body: AddCommentRequestSchema,
    responses: { 201: AddCommentResponseSchema, 202: HeldCommentResponseSchema },
    refuses: true,
  },
  updateComment: {
    method: 'PATCH',
    path: '/api/v1/feedback/:id/comments/:commentId',
    auth: 'public',
    summary: "Edit a comment (its author until the team replies: with a public key, proved by their signed token; or a secret key, a team comment), keeping the previous content; pin or unpin a team comment (secret key)",
    params: CommentIdParamsSchema,
    body: UpdateCommentRequestSchema,
    // 202: the project holds the author's edit for its team (docs/moderation.md); the comment keeps its text.
    responses: { 200: UpdateCommentResponseSchema, 202: HeldEditResponseSchema },
    refuses: true,
    endUserToken: true,
  },
  deleteComment: {
    method: 'DELETE',
    path: '/api/v1/feedback/:id/comments/:commentId',
    auth: 'public',
    summary: 'Delete a comment with its replies: its author until the team replies (with a public key, proved by their signed token), or any comment with a secret key',
    params: CommentIdParamsSchema,
    query: DeleteCommentQuerySchema,
    responses: { 200: DeleteCommentResponseSchema },
    refuses: true,
    endUserToken: true,
  },
  commentHistory: {
    method: 'GET',
    path: '/api/v1/feedback/:id/comments/:commentId/history',
    auth: 'secret',
    summary: "A comment and its previous contents, oldest first",
    params: CommentIdParamsSchema,
    responses: { 200: CommentHistoryResponseSchema },
  },

  // Subscriptions (docs/notifications.md, "Subscriptions"), an extension: an end user (by
  // externalId) subscribes, unsubscribes from an item or the whole project, and is asked about;
  // a secret key lists an item's subscribers.
  getSubscription: {
    method: 'GET',
    path: '/api/v1/feedback/:id/subscription',
    auth: 'public',
    summary: 'Whether an end user is told when the item moves',
    params: FeedbackIdParamsSchema,
    query: SubscriptionQuerySchema,
    responses: { 200: SubscriptionStateSchema },
  },
  subscribe: {
    method: 'POST',
    path: '/api/v1/feedback/:id/subscription',
    auth: 'public',
    summary: 'Subscribe an end user to the item without voting (undoes an earlier unsubscribe from it)',
    params: FeedbackIdParamsSchema,
    body: SubscribeRequestSchema,
    responses: { 200: SubscriptionStateSchema },
  },
  unsubscribe: {
    method: 'POST',
    path: '/api/v1/feedback/:id/unsubscribe',
    auth: 'public',
    summary: 'Unsubscribe an end user from the item; voting or commenting again does not undo it',
    params: FeedbackIdParamsSchema,
    body: UnsubscribeRequestSchema,
    responses: { 200: SubscriptionStateSchema },
  },
  unsubscribeAll: {
    method: 'POST',
    path: '/api/v1/unsubscribe',
    auth: 'public',
    summary: "Unsubscribe an end user from every item of the project, now and later (items they subscribe to afterwards by choice excepted)",
    body: UnsubscribeRequestSchema,
    notFound: true,
    responses: { 200: ProjectUnsubscribeResponseSchema },
  },
  listSubscribers: {
    method: 'GET',
    path: '/api/v1/feedback/:id/subscribers',
    auth: 'secret',
    summary: "An item's subscribers who are told when it moves, oldest first, with why",
    params: FeedbackIdParamsSchema,
    query: ListSubscribersQuerySchema,
    responses: { 200: SubscriberListResponseSchema },
  },

  // The operator's extensions beyond the spec (docs/api.md, "Extensions"): secret keys only.
  updateFeedback: {
    method: 'PATCH',
    path: '/api/v1/feedback/:id',
    auth: 'secret',
    summary: "Change an item's status, title, description or type; a status change is recorded in its history",
    params: FeedbackIdParamsSchema,
    body: UpdateFeedbackRequestSchema,
    responses: { 200: UpdateFeedbackResponseSchema },
  },
  deleteFeedback: {
    method: 'DELETE',
    path: '/api/v1/feedback/:id',
    auth: 'secret',
    summary: 'Delete an item with its votes, comments and history',
    params: FeedbackIdParamsSchema,
    responses: { 200: DeleteFeedbackResponseSchema },
  },
  mergeFeedback: {
    method: 'POST',
    path: '/api/v1/feedback/:id/merge',
    auth: 'secret',
    summary: 'Merge a duplicate into another item: its votes and comments move, and the duplicate is deleted',
    params: FeedbackIdParamsSchema,
    body: MergeFeedbackRequestSchema,
    responses: { 200: MergeFeedbackResponseSchema },
  },

  // One end user's data (docs/api.md, "Erasing and exporting one end user"): secret keys only.
  eraseUser: {
    method: 'DELETE',
    path: '/api/v1/users/:externalId',
    auth: 'secret',
    summary: "Erase an end user: profile and votes deleted, submissions and comments anonymised (or deleted with content=delete), counters kept exact; sends user.erased",
    params: ExternalIdParamsSchema,
    query: EraseUserQuerySchema,
    responses: { 200: EraseUserResponseSchema },
    // An erasure is idempotent by itself (a repeat answers zero counts), and a stored answer would
    // keep a fingerprint of this path, which names the person, for a day after they were erased.
    idempotencyKey: false,
  },
  exportUser: {
    method: 'GET',
    path: '/api/v1/users/:externalId/export',
    auth: 'secret',
    summary: 'Everything stored about an end user (profile, submissions, votes, comments, subscriptions, held posts, notifications, blocks) as one JSON document',
    params: ExternalIdParamsSchema,
    responses: { 200: UserExportSchema },
  },

  // Webhook subscriptions (docs/webhooks.md): secret keys only.
  createWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks',
    auth: 'secret',
    summary: "Subscribe an endpoint to the project's events; the answer shows its signing secret, once",
    body: CreateWebhookRequestSchema,
    responses: { 201: WebhookWithSecretResponseSchema },
    // The answer holds the signing secret: an idempotency record would keep it for 24 h and replay
    // it to any key of the project that sends the same Idempotency-Key (issue 37). The header is
    // ignored; a repeat after a lost answer makes another endpoint (list them and delete the spare).
    idempotencyKey: false,
    holdsSecret: true,
  },
  listWebhooks: {
    method: 'GET',
    path: '/api/v1/webhooks',
    auth: 'secret',
    summary: "The project's webhook endpoints",
    responses: { 200: WebhookListResponseSchema },
  },
  getWebhook: {
    method: 'GET',
    path: '/api/v1/webhooks/:webhookId',
    auth: 'secret',
    summary: 'One webhook endpoint',
    params: WebhookIdParamsSchema,
    responses: { 200: WebhookResponseSchema },
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/api/v1/webhooks/:webhookId',
    auth: 'secret',
    summary: "Change an endpoint's URL, events, description or format, or disable or enable it",
    params: WebhookIdParamsSchema,
    body: UpdateWebhookRequestSchema,
    responses: { 200: WebhookResponseSchema },
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/api/v1/webhooks/:webhookId',
    auth: 'secret',
    summary: 'Delete an endpoint with its deliveries and their log',
    params: WebhookIdParamsSchema,
    responses: { 200: DeleteWebhookResponseSchema },
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/api/v1/webhooks/:webhookId/rotate-secret',
    auth: 'secret',
    summary: 'Give an endpoint a new signing secret; the old one also signs for a grace period (a day by default)',
    params: WebhookIdParamsSchema,
    body: RotateWebhookSecretRequestSchema,
    responses: { 200: WebhookWithSecretResponseSchema },
    // The answer holds the signing secret: an idempotency record would keep it for 24 h and replay
    // it to any key of the project that sends the same Idempotency-Key (issue 37). The header is
    // ignored; a repeat after a lost answer rotates again, and its answer is the secret that signs.
    idempotencyKey: false,
    holdsSecret: true,
  },
  testWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks/:webhookId/test',
    auth: 'secret',
    summary: 'Send a signed webhook.test to an endpoint now and answer what came of it',
    params: WebhookIdParamsSchema,
    responses: { 200: TestWebhookResponseSchema },
    // The attempt may take 15 s, which no key's transaction may be held open for (on the embedded
    // database it held the one session, so the test's own record waited for it: a 503); a repeat
    // only sends another test.
    idempotencyKey: false,
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/api/v1/webhooks/:webhookId/deliveries',
    auth: 'secret',
    summary: "An endpoint's deliveries, newest first, each with every attempt",
    params: WebhookIdParamsSchema,
    query: ListWebhookDeliveriesQuerySchema,
    responses: { 200: WebhookDeliveryListResponseSchema },
  },
  recoverWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks/:webhookId/recover',
    auth: 'secret',
    summary: 'Queue again every failed delivery of an endpoint made since a time (after an outage)',
    params: WebhookIdParamsSchema,
    body: RecoverWebhookRequestSchema,
    responses: { 200: RecoverWebhookResponseSchema },
  },
  redeliverWebhookDelivery: {
    method: 'POST',
    path: '/api/v1/webhooks/deliveries/:deliveryId/redeliver',
    auth: 'secret',
    summary: 'Send one delivery again, with the same webhook-id',
    params: WebhookDeliveryIdParamsSchema,
    responses: { 200: WebhookDeliveryResponseSchema },
  },
  // Pull endpoints (`feedback webhooks listen`): the server never connects to the developer's machine.
  listenWebhook: {
    method: 'POST',
    path: '/api/v1/webhooks/listen',
    auth: 'secret',
    summary: 'Make a pull endpoint, whose deliveries a listener pulls instead of the server sending them; the answer shows its signing secret, once',
    body: ListenWebhookRequestSchema,
    responses: { 201: WebhookWithSecretResponseSchema },
    // The answer holds the signing secret: an idempotency record would keep it for 24 h and replay
    // it to any key of the project that sends the same Idempotency-Key (issue 37). The header is
    // ignored; a repeat after a lost answer makes another pull endpoint, which the hourly pruning deletes unpulled.
    idempotencyKey: false,
    holdsSecret: true,
  },
  pullWebhookDeliveries: {
    method: 'POST',
    path: '/api/v1/webhooks/:webhookId/pull',
    auth: 'secret',
    summary: "Claim a pull endpoint's due deliveries, signed, waiting up to waitSeconds for one",
    params: WebhookIdParamsSchema,
    body: PullWebhookDeliveriesRequestSchema,
    responses: { 200: PullWebhookDeliveriesResponseSchema },
    // A repeat after a lost answer is harmless: what the lost answer held is handed out again once its claim expires.
    idempotencyKey: false,
  },
  reportWebhookDelivery: {
    method: 'POST',
    path: '/api/v1/webhooks/:webhookId/deliveries/:deliveryId/outcome',
    auth: 'secret',
    summary: 'Record what a pulled delivery came to; a retry, a success or a failure follows as for a sent one',
    params: WebhookDeliveryParamsSchema,
    body: ReportWebhookDeliveryRequestSchema,
    responses: { 200: WebhookDeliveryResponseSchema },
  },

  // Triage in the browser (docs/triage.md): a one-time link to the team's pages, for the key's project.
  createSignInLink: {
    method: 'POST',
    path: '/api/v1/team/sign-in-links',
    auth: 'secret',
    summary: "A one-time sign-in link to the team's pages (/team) of the key's project, valid for 10 minutes",
    body: CreateSignInLinkRequestSchema,
    responses: { 201: SignInLinkResponseSchema },
    // The answer holds the link's token, which the server stores only as a hash: an idempotency
    // record would keep the token itself to replay it. A repeat makes another link, harmlessly.
    idempotencyKey: false,
    holdsSecret: true,
  },

  // The public board's settings and brand (docs/board.md): secret keys only.
  getBoard: {
    method: 'GET',
    path: '/api/v1/board',
    auth: 'secret',
    summary: "The key's project's public board: on or off, its brand (name, description, logo, accent colour, default order, default language) and who may frame it",
    responses: { 200: BoardSettingsSchema },
  },
  updateBoard: {
    method: 'PATCH',
    path: '/api/v1/board',
    auth: 'secret',
    summary: "Change the board's brand: name, one-line description, logo (base64 PNG, JPEG, WebP or GIF, at most 256 KB), accent colour (4.5:1 contrast), default order, default language (one of the supported locales); null clears a field",
    body: UpdateBoardRequestSchema,
    responses: { 200: BoardSettingsSchema },
  },

  // The changelog (docs/changelog.md): a secret key writes, any key reads what is published.
  listChangelog: {
    method: 'GET',
    path: '/api/v1/changelog',
    auth: 'public',
    summary: 'Changelog entries, newest publication first: a public key sees the published ones, a secret key also drafts (first) and scheduled ones',
    query: ListChangelogQuerySchema,
    responses: { 200: ChangelogListResponseSchema },
  },
  createChangelog: {
    method: 'POST',
    path: '/api/v1/changelog',
    auth: 'secret',
    summary: 'Write a changelog entry (Markdown body, linked items): a draft, published now (`publish`) or at `publishAt`; `complete` moves its items to completed on publishing',
    body: CreateChangelogRequestSchema,
    responses: { 201: ChangelogEntryResponseSchema },
  },
  updateChangelog: {
    method: 'PATCH',
    path: '/api/v1/changelog/:entryId',
    auth: 'secret',
    summary: "Change an entry's title, body or linked items (`links` replaces the list)",
    params: ChangelogEntryIdParamsSchema,
    body: UpdateChangelogRequestSchema,
    responses: { 200: ChangelogEntryResponseSchema },
  },
  publishChangelog: {
    method: 'POST',
    path: '/api/v1/changelog/:entryId/publish',
    auth: 'secret',
    summary: 'Publish an entry now or at `publishAt` (`changelog.published` follows when it appears, once); an entry already published is left as it is',
    params: ChangelogEntryIdParamsSchema,
    body: PublishChangelogRequestSchema,
    responses: { 200: ChangelogEntryResponseSchema },
  },
  deleteChangelog: {
    method: 'DELETE',
    path: '/api/v1/changelog/:entryId',
    auth: 'secret',
    summary: 'Delete an entry (its items stay)',
    params: ChangelogEntryIdParamsSchema,
    responses: { 200: DeleteChangelogResponseSchema },
  },
  listHeld: {
    method: 'GET',
    path: '/api/v1/moderation',
    auth: 'secret',
    summary: "The project's moderation queue: submissions and comments held for the team, oldest first",
    responses: { 200: ModerationQueueResponseSchema },
  },
  approveHeld: {
    method: 'POST',
    path: '/api/v1/moderation/approve',
    auth: 'secret',
    summary: 'Approve held posts: each becomes public with the id it was given, and `feedback.created` or `comment.created` goes out once',
    body: ApproveHeldRequestSchema,
    responses: { 200: ApproveHeldResponseSchema },
  },
  rejectHeld: {
    method: 'POST',
    path: '/api/v1/moderation/reject',
    auth: 'secret',
    summary:
      "Reject held posts: each is deleted; with `block`, its author can no longer post: the end user until the block is lifted, or an anonymous caller's address for 30 days (`blockDays` sets another length)",
    body: RejectHeldRequestSchema,
    responses: { 200: RejectHeldResponseSchema },
  },
  listBlocks: {
    method: 'GET',
    path: '/api/v1/moderation/blocks',
    auth: 'secret',
    summary: 'The blocks in force, newest first: each with its id, whom it names (an end user or an address), the start of the post that made it, and when it ends',
    responses: { 200: PostingBlockListResponseSchema },
  },
  unblock: {
    method: 'DELETE',
    path: '/api/v1/moderation/blocks/:blockId',
    auth: 'secret',
    summary: 'Lift a block: its author may post again at once',
    params: BlockIdParamsSchema,
    responses: { 200: UnblockResponseSchema },
  },

  // The notifications' log (docs/notifications.md): secret keys only.
  listNotifications: {
    method: 'GET',
    path: '/api/v1/notifications',
    auth: 'secret',
    summary: 'What subscribers were told, newest first, one row per change and recipient, with where its mail stands (`state` filters)',
    query: ListNotificationsQuerySchema,
    responses: { 200: NotificationListResponseSchema },
  },
  retryNotifications: {
    method: 'POST',
    path: '/api/v1/notifications/retry',
    auth: 'secret',
    summary: "Send failed notifications' mail again: these `ids`, or every failed one of the project",
    body: RetryNotificationsRequestSchema,
    responses: { 200: RetryNotificationsResponseSchema },
  },
  updateNotificationSettings: {
    method: 'PATCH',
    path: '/api/v1/notifications/settings',
    auth: 'secret',
    summary: 'Choose how the project mails its subscribers: a message per coalescing window, or one daily digest (`digest: true`)',
    body: NotificationSettingsSchema,
    responses: { 200: NotificationSettingsSchema },
  },
} as const satisfies Record<string, RouteDefinition>;

/** The name of an operation of the API. */
export type OperationName = keyof typeof routes;

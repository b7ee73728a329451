import type { EntitySchema } from '@mikro-orm/core';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { ApiKey } from './api-key.entity.js';
import { Comment, CommentRevision } from './comment.entity.js';
import { Feedback, FeedbackCounters, FeedbackStats } from './feedback.entity.js';
import { StatusChange } from './status-change.entity.js';
import { Project } from './project.entity.js';
import { EndUser } from './end-user.entity.js';
import { Vote } from './vote.entity.js';
import { BoardSpentToken } from './board-spent-token.entity.js';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent } from './webhook.entity.js';
import { TeamSession, TeamSignInLink } from './team-session.entity.js';
import { VoterSecret } from './voter-secret.entity.js';
import { ChangelogEntry, ChangelogLink } from './changelog.entity.js';
import { Subscription } from './subscription.entity.js';
import { HeldPost, PostingBlock } from './moderation.entity.js';
import { Notification, NotificationHold } from './notification.entity.js';

/**
 * Every entity of the data model; the ORM is initialised with exactly these.
 *
 * Each many-to-one says `updateRule('cascade')` because the migrations made every foreign key
 * `on update cascade` (MikroORM 6's default); MikroORM 7 no longer assumes it, and without the
 * rule its schema diff would see every foreign key of a database made by 0.1.0 as changed.
 * Typed as plain schemas: the list's inferred type grew past what the compiler will write out.
 */
export const entities: EntitySchema[] = [Project, ApiKey, EndUser, Feedback, FeedbackCounters, FeedbackStats, Comment, CommentRevision, Vote, IdempotencyKey, StatusChange, WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookAttempt, BoardSpentToken, TeamSignInLink, TeamSession, VoterSecret, ChangelogEntry, ChangelogLink, Subscription, HeldPost, PostingBlock, Notification, NotificationHold];

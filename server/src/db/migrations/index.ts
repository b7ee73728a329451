import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001PgTrgm } from './Migration0001_pg_trgm.js';
import { Migration0002InitialSchema } from './Migration0002_initial_schema.js';
import { Migration0003IdempotencyKeys } from './Migration0003_idempotency_keys.js';
import { Migration0004HotPath } from './Migration0004_hot_path.js';
import { Migration0005AdminApi } from './Migration0005_admin_api.js';
import { Migration0006SearchText } from './Migration0006_search_text.js';
import { Migration0007TimeOrderedIds } from './Migration0007_time_ordered_ids.js';
import { Migration0008VoteBatches } from './Migration0008_vote_batches.js';
import { Migration0009ExactlyOnce } from './Migration0009_exactly_once.js';
import { Migration0010Webhooks } from './Migration0010_webhooks.js';
import { Migration0011WebhookListeners } from './Migration0011_webhook_listeners.js';
import { Migration0012OutboxFanOut } from './Migration0012_outbox_fan_out.js';
import { Migration0013Board } from './Migration0013_board.js';
import { Migration0014BoardIdentity } from './Migration0014_board_identity.js';
import { Migration0015TeamSessions } from './Migration0015_team_sessions.js';
import { Migration0016VoterSecret } from './Migration0016_voter_secret.js';
import { Migration0017BoardBrand } from './Migration0017_board_brand.js';
import { Migration0018BoardLocale } from './Migration0018_board_locale.js';
import { Migration0019Conversation } from './Migration0019_conversation.js';
import { Migration0020Changelog } from './Migration0020_changelog.js';
import { Migration0021Subscriptions } from './Migration0021_subscriptions.js';
import { Migration0022Moderation } from './Migration0022_moderation.js';
import { Migration0023Notifications } from './Migration0023_notifications.js';
import { Migration0024Widget } from './Migration0024_widget.js';
import { Migration0025SubscribeOnVote } from './Migration0025_subscribe_on_vote.js';
import { Migration0026ToggleBatchStatement } from './Migration0026_toggle_batch_statement.js';
import { Migration0027NotificationHolds } from './Migration0027_notification_holds.js';
import { Migration0028BlockExpiry } from './Migration0028_block_expiry.js';
import { Migration0029HeldEdits } from './Migration0029_held_edits.js';

/**
 * Every migration, in the order they apply. A name is `Migration` and a four-digit sequence number,
 * then `_` and what it does in snake case: the next is the last number plus one (a file
 * `Migration0030_what_it_does.ts` with the class `Migration0030WhatItDoes`), so names sort in the
 * order they apply. Names are stored in mikro_orm_migrations: never rename one that has shipped
 * (the numbering of 0.2.0 was done once, with former-names.ts to carry installed databases over).
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration0001_pg_trgm', class: Migration0001PgTrgm },
  { name: 'Migration0002_initial_schema', class: Migration0002InitialSchema },
  { name: 'Migration0003_idempotency_keys', class: Migration0003IdempotencyKeys },
  { name: 'Migration0004_hot_path', class: Migration0004HotPath },
  { name: 'Migration0005_admin_api', class: Migration0005AdminApi },
  { name: 'Migration0006_search_text', class: Migration0006SearchText },
  { name: 'Migration0007_time_ordered_ids', class: Migration0007TimeOrderedIds },
  { name: 'Migration0008_vote_batches', class: Migration0008VoteBatches },
  { name: 'Migration0009_exactly_once', class: Migration0009ExactlyOnce },
  { name: 'Migration0010_webhooks', class: Migration0010Webhooks },
  { name: 'Migration0011_webhook_listeners', class: Migration0011WebhookListeners },
  { name: 'Migration0012_outbox_fan_out', class: Migration0012OutboxFanOut },
  { name: 'Migration0013_board', class: Migration0013Board },
  { name: 'Migration0014_board_identity', class: Migration0014BoardIdentity },
  { name: 'Migration0015_team_sessions', class: Migration0015TeamSessions },
  { name: 'Migration0016_voter_secret', class: Migration0016VoterSecret },
  { name: 'Migration0017_board_brand', class: Migration0017BoardBrand },
  { name: 'Migration0018_board_locale', class: Migration0018BoardLocale },
  { name: 'Migration0019_conversation', class: Migration0019Conversation },
  { name: 'Migration0020_changelog', class: Migration0020Changelog },
  { name: 'Migration0021_subscriptions', class: Migration0021Subscriptions },
  { name: 'Migration0022_moderation', class: Migration0022Moderation },
  { name: 'Migration0023_notifications', class: Migration0023Notifications },
  { name: 'Migration0024_widget', class: Migration0024Widget },
  { name: 'Migration0025_subscribe_on_vote', class: Migration0025SubscribeOnVote },
  { name: 'Migration0026_toggle_batch_statement', class: Migration0026ToggleBatchStatement },
  { name: 'Migration0027_notification_holds', class: Migration0027NotificationHolds },
  { name: 'Migration0028_block_expiry', class: Migration0028BlockExpiry },
  { name: 'Migration0029_held_edits', class: Migration0029HeldEdits },
];

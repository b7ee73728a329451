import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000PgTrgm } from './Migration20261121000000_pg_trgm.js';
import { Migration20261121000100InitialSchema } from './Migration20261121000100_initial_schema.js';
import { Migration20261121000200IdempotencyKeys } from './Migration20261121000200_idempotency_keys.js';
import { Migration20261122000300HotPath } from './Migration20261122000300_hot_path.js';
import { Migration20261123000400AdminApi } from './Migration20261123000400_admin_api.js';
import { Migration20261123000500SearchText } from './Migration20261123000500_search_text.js';
import { Migration20261123000600TimeOrderedIds } from './Migration20261123000600_time_ordered_ids.js';
import { Migration20261123000700VoteBatches } from './Migration20261123000700_vote_batches.js';
import { Migration20261125000800ExactlyOnce } from './Migration20261125000800_exactly_once.js';
import { Migration20261125000900Webhooks } from './Migration20261125000900_webhooks.js';
import { Migration20261126001000WebhookListeners } from './Migration20261126001000_webhook_listeners.js';
import { Migration20261126001100OutboxFanOut } from './Migration20261126001100_outbox_fan_out.js';
import { Migration20261127001200Board } from './Migration20261127001200_board.js';
import { Migration20261127001300BoardIdentity } from './Migration20261127001300_board_identity.js';
import { Migration20261127001400TeamSessions } from './Migration20261127001400_team_sessions.js';
import { Migration20261128001500VoterSecret } from './Migration20261128001500_voter_secret.js';
import { Migration20261128001600BoardBrand } from './Migration20261128001600_board_brand.js';
import { Migration20261129001700BoardLocale } from './Migration20261129001700_board_locale.js';
import { Migration20261130001800Conversation } from './Migration20261130001800_conversation.js';
import { Migration20261201001000Changelog } from './Migration20261201001000_changelog.js';
import { Migration20261202001100Subscriptions } from './Migration20261202001100_subscriptions.js';

/** Every migration, in the order they apply. Names are stored in mikro_orm_migrations: never rename one. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121000000_pg_trgm', class: Migration20261121000000PgTrgm },
  { name: 'Migration20261121000100_initial_schema', class: Migration20261121000100InitialSchema },
  { name: 'Migration20261121000200_idempotency_keys', class: Migration20261121000200IdempotencyKeys },
  { name: 'Migration20261122000300_hot_path', class: Migration20261122000300HotPath },
  { name: 'Migration20261123000400_admin_api', class: Migration20261123000400AdminApi },
  { name: 'Migration20261123000500_search_text', class: Migration20261123000500SearchText },
  { name: 'Migration20261123000600_time_ordered_ids', class: Migration20261123000600TimeOrderedIds },
  { name: 'Migration20261123000700_vote_batches', class: Migration20261123000700VoteBatches },
  { name: 'Migration20261125000800_exactly_once', class: Migration20261125000800ExactlyOnce },
  { name: 'Migration20261125000900_webhooks', class: Migration20261125000900Webhooks },
  { name: 'Migration20261126001000_webhook_listeners', class: Migration20261126001000WebhookListeners },
  { name: 'Migration20261126001100_outbox_fan_out', class: Migration20261126001100OutboxFanOut },
  { name: 'Migration20261127001200_board', class: Migration20261127001200Board },
  { name: 'Migration20261127001300_board_identity', class: Migration20261127001300BoardIdentity },
  { name: 'Migration20261127001400_team_sessions', class: Migration20261127001400TeamSessions },
  { name: 'Migration20261128001500_voter_secret', class: Migration20261128001500VoterSecret },
  { name: 'Migration20261128001600_board_brand', class: Migration20261128001600BoardBrand },
  { name: 'Migration20261129001700_board_locale', class: Migration20261129001700BoardLocale },
  { name: 'Migration20261130001800_conversation', class: Migration20261130001800Conversation },
  { name: 'Migration20261201001000_changelog', class: Migration20261201001000Changelog },
  { name: 'Migration20261202001100_subscriptions', class: Migration20261202001100Subscriptions },
];

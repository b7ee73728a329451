/**
 * The names the migrations had until 0.2.0, each with the name it has now. They looked like dates
 * and were not (the date part was picked by hand, some after the day they were written) and their
 * last six digits repeated, so 0.2.0 numbered them in the order they apply. A database records the
 * names of the migrations it ran in mikro_orm_migrations: migrate.ts rewrites these before the
 * migrator reads them, so a database made by an earlier version keeps its history. Never edit a
 * pair; a new migration never needs one.
 */
export const FORMER_NAMES: ReadonlyMap<string, string> = new Map([
  ['Migration20261121000000_pg_trgm', 'Migration0001_pg_trgm'],
  ['Migration20261121000100_initial_schema', 'Migration0002_initial_schema'],
  ['Migration20261121000200_idempotency_keys', 'Migration0003_idempotency_keys'],
  ['Migration20261122000300_hot_path', 'Migration0004_hot_path'],
  ['Migration20261123000400_admin_api', 'Migration0005_admin_api'],
  ['Migration20261123000500_search_text', 'Migration0006_search_text'],
  ['Migration20261123000600_time_ordered_ids', 'Migration0007_time_ordered_ids'],
  ['Migration20261123000700_vote_batches', 'Migration0008_vote_batches'],
  ['Migration20261125000800_exactly_once', 'Migration0009_exactly_once'],
  ['Migration20261125000900_webhooks', 'Migration0010_webhooks'],
  ['Migration20261126001000_webhook_listeners', 'Migration0011_webhook_listeners'],
  ['Migration20261126001100_outbox_fan_out', 'Migration0012_outbox_fan_out'],
  ['Migration20261127001200_board', 'Migration0013_board'],
  ['Migration20261127001300_board_identity', 'Migration0014_board_identity'],
  ['Migration20261127001400_team_sessions', 'Migration0015_team_sessions'],
  ['Migration20261128001500_voter_secret', 'Migration0016_voter_secret'],
  ['Migration20261128001600_board_brand', 'Migration0017_board_brand'],
  ['Migration20261129001700_board_locale', 'Migration0018_board_locale'],
  ['Migration20261130001800_conversation', 'Migration0019_conversation'],
  ['Migration20261201001000_changelog', 'Migration0020_changelog'],
  ['Migration20261202001100_subscriptions', 'Migration0021_subscriptions'],
  ['Migration20261203001200_moderation', 'Migration0022_moderation'],
  ['Migration20261204001300_notifications', 'Migration0023_notifications'],
  ['Migration20261205001400_widget', 'Migration0024_widget'],
  ['Migration20261207001600_subscribe_on_vote', 'Migration0025_subscribe_on_vote'],
  ['Migration20261208001700_toggle_batch_statement', 'Migration0026_toggle_batch_statement'],
  ['Migration20261209001800_notification_holds', 'Migration0027_notification_holds'],
  ['Migration20261209001900_block_expiry', 'Migration0028_block_expiry'],
  ['Migration20261209002000_held_edits', 'Migration0029_held_edits'],
]);

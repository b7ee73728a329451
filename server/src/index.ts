/**
 * @feedbackd/server: the feedback API server, its database layer and operator functions. What only
 * the project's tests drive (the hot path's batches, the rate limit's bank, ...) is exported by
 * @feedbackd/server/testing instead (testing.ts).
 */
import './runtime-floor.js'; // first of all: an old Node is refused before any other module of the package runs
export { createApp, type AppDependencies } from './app.js';
export { startServer, type RunningServer } from './serve/start-server.js';
export { InvalidMailSettingsError, InvalidPublicUrlError, publicOrigin, type ServeOptions } from './serve/serve-options.js';
export { startCluster, type ClusterOptions, type RunningCluster } from './cluster/primary.js';
export { openDatabase, redactUrl, type Database, type DatabaseLocation, type DatabaseRole } from './db/database.js';
export { openSqlPool, type SqlPool } from './db/pool.js';
export { DataDirInUseError, DatabaseMissingError, embeddedDatabaseExists } from './db/embedded/embedded-postgres.js';
export { openOrm, type OrmOptions } from './db/orm.js';
export { migrateDown, migrateUp, migrationStatus, unappliedMigrations, type MigrationStatus } from './db/migrate.js';
export { VOTER_SECRET_FILE, VOTER_SECRET_VARIABLE, VoterSecretError, voterSecretOf } from './db/voter-secret.js';
export { voterKeyOf } from './domain/votes/votes.js';
export { createLogger, type Logger, type LogLevel } from './logger.js';
export { createApiKey, listApiKeys, revokeApiKey, ApiKeyNotFoundError, type ApiKeySummary } from './domain/projects/keys.service.js';
export { ProjectNotFoundError } from './domain/projects/projects.service.js';
export {
  boardSetting,
  changeIdentitySecret,
  IdentitySecretExistsError,
  InvalidOriginError,
  setBoardEnabled,
  setAnonymousComments,
  setModeration,
  setBoardFrameOrigins,
  type BoardSetting,
  type IdentitySecret,
  type IdentitySecretAction,
} from './domain/projects/board-settings.service.js';
export { setWidget, widgetSetting, WidgetOriginsMissingError, WIDGET_LOADER_PATH, type WidgetSetting } from './domain/projects/widget-settings.service.js';
export { InvalidBrandError, setBoardBrand, type BoardBrand } from './domain/projects/board-brand.service.js';
export { LOGO_MAX_BYTES } from './domain/projects/brand/logo.js';
export type { MikroORM } from '@mikro-orm/postgresql';
export { createSignInLink, endTeamSessions, listTeamSessions, TeamSessionNotFoundError, type SignInLink, type TeamSessionSummary } from './domain/team-sessions/team-sessions.service.js';
export { eraseEndUser, type Erasure } from './domain/people/erasure.service.js';
export { exportEndUser } from './domain/people/export.service.js';
export type { ProjectRef } from './domain/people/project-ref.js';
export { DEFAULT_PROJECT_SLUG, DEFAULT_RATE_LIMIT } from './serve-defaults.js';
export type { RateLimitOptions } from './http/access.js';
export type { RateLimiter, RateLimitState } from './limits/lease-client.js';
export { seedProject, type SeedOptions, type SeedProgress, type SeedSummary } from './ops/seed/index.js';
export { openApiFileText } from './openapi.js';
export {
  DUMP_FORMAT,
  DUMP_VERSION,
  DumpFormatError,
  dumpLines,
  exportDump,
  importDump,
  ImportConflictError,
  parseDumpHeader,
  type DumpCounts,
  type DumpHeader,
  type ExportOptions,
  type ExportSummary,
  type ImportOptions,
  type ImportSummary,
  type ProjectOutcome,
  type TransferProgress,
  type VoterSaltOutcome,
} from './ops/transfer/index.js';

/** @feedbackd/server: the feedback API server, its database layer and operator functions. */
import './runtime-floor.js'; // first of all: an old Node is refused before any other module of the package runs
export { createApp, type AppDependencies } from './app.js';
export { startServer, hotPoolSize, type RunningServer, type ServeOptions } from './main.js';
export { startCluster, type ClusterOptions, type RunningCluster } from './cluster/primary.js';
export { openDatabase, redactUrl, type Database, type DatabaseLocation, type DatabaseRole } from './db/database.js';
export { openSqlPool, type SqlPool } from './db/pool.js';
export { DataDirInUseError, DatabaseMissingError, embeddedDatabaseExists } from './db/embedded/embedded-postgres.js';
export { openOrm, type OrmOptions } from './db/orm.js';
export { migrateDown, migrateUp, migrationStatus, unappliedMigrations, type MigrationStatus } from './db/migrate.js';
export { createLogger, silentLogger, type Logger, type LogLevel } from './logger.js';
export { createApiKey, listApiKeys, revokeApiKey, ApiKeyNotFoundError, type ApiKeySummary } from './modules/keys/keys.service.js';
export { ensureProject, ProjectNotFoundError, DEFAULT_PROJECT_SLUG } from './modules/projects/projects.service.js';
export { AppError, toErrorResponse } from './http/errors.js';
export { KEY_CACHE_TTL_MS } from './http/middleware/auth.js';
export type { MikroORM } from '@mikro-orm/postgresql';
export { DEFAULT_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS, type RateLimitOptions } from './http/middleware/rate-limit.js';
export { LimitBank, type Grant, type LeaseHolders } from './limits/bank.js';
export { FailedAuthLimit } from './limits/failed-auth.js';
export { LeaseClient, type RateLimiter, type RateLimitState } from './limits/lease-client.js';
export { addComment, type CommentAuthorInput } from './modules/feedback/comments.service.js';
export { listStatement, listValues } from './public/feedback.sql.js';
export { voteBatches, type BatchedToggle, type ToggleRequest, type VoteBatches } from './public/vote-batches.js';
export { submitBatches, submitAlone, type BatchedSubmission, type Submission, type SubmitBatches } from './public/submit-batches.js';
export { seedProject, SEED_EPOCH_MS, SEED_MARKERS, markerItemCount, voterPoolSize, type SeedMarker, type SeedOptions, type SeedProgress, type SeedSummary } from './db/seeders/index.js';
export { buildOpenApiDocument, openApiFileText, openApiJson } from './openapi.js';
export { OPENAPI_PATH } from './http/middleware/keyless.js';
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
} from './admin/transfer/index.js';

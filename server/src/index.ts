/** @feedback/server: the feedback API server, its database layer and operator functions. */
export { createApp, type AppDependencies } from './app.js';
export { startServer, type RunningServer, type ServeOptions } from './main.js';
export { openDatabase, redactUrl, type Database, type DatabaseLocation, type DatabaseRole } from './db/database.js';
export { DataDirInUseError } from './db/embedded/embedded-postgres.js';
export { openOrm } from './db/orm.js';
export { migrateDown, migrateUp, migrationStatus, type MigrationStatus } from './db/migrate.js';
export { createLogger, silentLogger, type Logger, type LogLevel } from './logger.js';
export { createApiKey, listApiKeys, revokeApiKey, ApiKeyNotFoundError, type ApiKeySummary } from './modules/keys/keys.service.js';
export { ensureProject, ProjectNotFoundError, DEFAULT_PROJECT_SLUG } from './modules/projects/projects.service.js';
export { AppError, toErrorResponse } from './http/errors.js';
export type { MikroORM } from '@mikro-orm/postgresql';
export { DEFAULT_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS, type RateLimitOptions } from './http/middleware/rate-limit.js';
export { addComment, type CommentAuthorInput } from './modules/feedback/comments.service.js';
export { listFeedbackSql, type Statement } from './modules/feedback/feedback-list.js';

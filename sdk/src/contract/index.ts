/**
 * The wire contract of the feedback API: zod schemas and types for every request and response of
 * the spec, and the route table. The server validates with these schemas and the SDK checks
 * responses with them, so the two cannot drift apart.
 */
export * from './admin.js';
export * from './board.js';
export * from './changelog.js';
export * from './comments.js';
export * from './common.js';
export * from './enums.js';
export * from './feedback.js';
export * from './moderation.js';
export * from './notifications.js';
export * from './query.js';
export * from './routes.js';
export * from './status-history.js';
export * from './subscriptions.js';
export * from './team.js';
export * from './user-data.js';
export * from './users.js';
export * from './votes.js';
export * from './webhook-events.js';
export * from './webhooks.js';

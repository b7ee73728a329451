/**
 * @feedbackd/sdk/testing: internals the project's own tests check directly. Not the SDK's public
 * API: they change whenever the SDK's insides do, without a major version.
 */
export { errors, from, Pool } from './undici-parts.js';
// The retry waits as computed, with the clock and the random draw passed in (test/sdk/client-stub.test.ts).
export { backoffDelay, parseRetryAfter, retryDelay, RETRY_BASE_DELAY_MS } from './retry.js';

/**
 * @feedbackd/sdk/testing: internals the project's own tests check directly. Not the SDK's public
 * API: they change whenever the SDK's insides do, without a major version.
 */
export { errors, from, Pool } from './undici-parts.js';

/**
 * @feedback/sdk: the typed client of the feedback API. The wire contract is re-exported here and
 * is also available on its own as `@feedback/sdk/contract`.
 */
export * from './contract/index.js';

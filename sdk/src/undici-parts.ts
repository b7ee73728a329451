import { createRequire } from 'node:module';
import type * as Undici from 'undici';

// The transport needs undici's Pool, its `request` method and its error classes: nothing else.
// undici's entry file loads the whole library (fetch, WebSocket, EventSource, the mock agents,
// the caches, every proxy agent) and with it node:zlib, node:worker_threads, node:dns and
// node:stream/web: about 110 modules, the largest share of a `feedback list` after zod. So the
// parts are loaded from their own files, as undici's entry file loads them (undici has no
// `exports` map, so these paths are reachable), and the `request` API is attached to the
// dispatchers the way that entry file attaches it.
//
// The paths are undici's internals, not its public API: should a release move them, or should the
// parts not be what the entry file exports, the whole library is loaded instead, as before.

/** What the transport takes from undici. */
export interface UndiciParts {
  Pool: typeof Undici.Pool;
  errors: typeof Undici.errors;
  /** Where they came from: their own files, or the whole library when those were not usable. */
  from: 'files' | 'whole library';
}

const require = createRequire(import.meta.url);

function loadParts(): UndiciParts {
  try {
    const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
    const errors = require('undici/lib/core/errors.js') as typeof Undici.errors;
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
    const api = require('undici/lib/api/index.js') as Record<string, unknown>;
    if (typeof Pool !== 'function' || typeof errors?.UndiciError !== 'function' || typeof api?.request !== 'function') return whole();
    if (!(Pool.prototype instanceof Dispatcher)) return whole();
    // undici's entry file does the same (`Object.assign(Dispatcher.prototype, api)`): doing it again
    // when something else loads the whole library assigns the same functions.
    Object.assign(Dispatcher.prototype, api);
    return { Pool, errors, from: 'files' };
  } catch {
    return whole();
  }
}

function whole(): UndiciParts {
  const undici = require('undici') as typeof Undici;
  return { Pool: undici.Pool, errors: undici.errors, from: 'whole library' };
}

/** @internal */
export const { Pool, errors, from } = loadParts();

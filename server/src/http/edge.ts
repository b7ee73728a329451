import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { voterKeyOf } from '../domain/votes/votes.js';
import type { Logger } from '../logger.js';
import { recordRequest } from '../metrics/http-metrics.js';
import { recording } from '../metrics/registry.js';
import type { AppContext, AppState } from './context.js';
import { AppError, pathNotFound, toErrorResponse } from './errors.js';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** While the database is down every request fails alike: one warning per interval says so. */
const DATABASE_DOWN_WARN_EVERY_MS = 10_000;

/**
 * The first and last layer every request meets, in one middleware:
 * - on the way in, the headers every response carries, set first so that errors carry them too:
 *   `X-Request-Id` (the caller's when it is sane, else a new one; it names the request in the log)
 *   and `X-Content-Type-Options: nosniff` (a browser must take every body as the JSON it is
 *   declared to be, never guess HTML or script from text a user submitted); and the Host header
 *   HTTP/1.1 requires;
 * - on the way out, the fallbacks of a request no route answered (404, 405, OPTIONS), every
 *   failure as the spec's JSON error, and the request's log line and metrics.
 */
export function edge(logger: Logger): Middleware<AppState> {
  const warnDatabaseDown = databaseDownWarnings(logger);
  const writeLine = requestLogLine(logger);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    ctx.state.requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    try {
      // RFC 9112, section 3.2: a request without Host is a broken client or a probe. Node would
      // answer it itself with an empty text 400; it is turned off there (serve/http-server.ts) so that
      // the answer is the API's JSON error. An empty Host is allowed (a target without an
      // authority); HTTP/1.0 had no Host, so it is not asked for.
      if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined) {
        throw new AppError(400, 'Missing Host header: HTTP/1.1 requests must send one', undefined, { Connection: 'close' });
      }
      await next();
      answerUnrouted(ctx);
    } catch (error) {
      const response = toErrorResponse(error);
      if (response.databaseDown) warnDatabaseDown(error);
      if (response.unexpected) {
        // A bug: its stack goes to the log with the request id; the caller sees 500 and nothing more.
        logger.error('unexpected error', { id: ctx.state.requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      // Headers already set (request id, rate limits) stay: they describe this response too.
      ctx.set(response.headers);
      // Refused before its body was read to the end (a decompression error half-way, say): the
      // connection's stream is in an unknown state, so it ends after this answer and the client
      // opens a new one instead of sending its next request into a socket about to be reset.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      ctx.status = response.status;
      ctx.body = response.body;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (recording) recordRequest(ctx, seconds);
      // No query string in the line: it may carry search terms.
      writeLine(ctx.state.requestId, ctx.method, loggedPath(ctx.path), ctx.status, Math.round(seconds * 10_000) / 10);
    }
  };
}

/** An end user's own paths (/api/v1/users/:externalId…): the log shows the template, never the person's id, which their erasure could not reach. */
const END_USER_PATH = /^(\/api\/v1\/users\/)[^/]+/i;

/** The path as the request's log line writes it. */
export function loggedPath(path: string): string {
  return path.replace(END_USER_PATH, '$1:externalId');
}

/**
 * A request no route answered becomes a JSON 404, and a known path called with the wrong method a
 * JSON 405 (the router's allowedMethods has already set the Allow header); OPTIONS on a known path
 * is a 204 with that Allow header (the router answers it with an empty 200: an empty answer is a
 * 204 in a JSON API, never a text/plain body).
 */
function answerUnrouted(ctx: Parameters<Middleware<AppState>>[0]): void {
  if (ctx.method === 'OPTIONS' && ctx.status === 200 && ctx.body === '') {
    ctx.status = 204;
    return;
  }
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 405) throw new AppError(405, `Method ${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`);
  if (ctx.status === 501) throw new AppError(501, `Method ${ctx.method} is not supported`);
  if (ctx.status === 404) throw pathNotFound(ctx.method, ctx.path);
}

/**
 * The one line of every request: id, method, path, status, time. A JSON logger hands over its
 * stream (`Logger.requestLines`): the line is then the one pino would write (same keys, order and
 * values), built here in about 0.2 µs instead of pino's 3 µs of generic serialisation. Any other
 * logger gets `info('request', fields)`.
 */
export function requestLogLine(logger: Logger): (id: string, method: string, path: string, status: number, ms: number) => void {
  const stream = logger.requestLines;
  if (!stream) return (id, method, path, status, ms) => logger.info('request', { id, method, path, status, ms });
  const pid = `,"pid":${process.pid}`;
  // Under load many lines share a millisecond: the ISO time is formatted once per millisecond
  // (`toISOString` per line was about a fiftieth of a request's CPU).
  let lastMs = -1;
  let time = '';
  return (id, method, path, status, ms) => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      time = `,"time":"${new Date(now).toISOString()}"`;
    }
    stream.write(`{"level":"info"${time}${pid},"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`);
  };
}

function databaseDownWarnings(logger: Logger): (error: unknown) => void {
  let lastWarning = 0;
  let answeredSinceWarning = 0;
  return (error) => {
    answeredSinceWarning += 1;
    const now = Date.now();
    if (now - lastWarning < DATABASE_DOWN_WARN_EVERY_MS) return;
    logger.warn('database unreachable: answering 503', { error: error instanceof Error ? error.message : String(error), requests: answeredSinceWarning });
    lastWarning = now;
    answeredSinceWarning = 0;
  };
}

/**
 * The caller's address: the socket's peer, or with `trustProxy` the X-Forwarded-For entry added
 * by the outermost trusted proxy (Koa's `proxy` + `maxIpsCount`). IPv4 clients seen through an
 * IPv6 socket (`::ffff:1.2.3.4`) are reported as plain IPv4, so one caller has one address.
 */
export function clientIp(ctx: AppContext): string {
  const ip = ctx.ip.trim();
  return ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

/**
 * The `voter_key` of an anonymous caller: an HMAC of its address under the project's salt, and of
 * that under the server's voter secret (db/voter-secret.ts), held in memory: the raw address is
 * never stored, one caller always maps to one key, and neither the database's salt nor a dump can
 * be used to try every address. (An identified voter's key is the end user's id; the `ip2:`
 * prefix keeps the two kinds apart even in principle.)
 */
export function anonymousVoterKey(ctx: AppContext): string {
  const { voterSecret, voterSalt } = ctx.state.caller;
  return voterKeyOf(voterSecret, voterSalt, clientIp(ctx));
}

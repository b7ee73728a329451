import type { AppContext } from './context.js';
import { AppError, UNSUPPORTED_CHARSET } from './errors.js';

/**
 * Which request bodies the API reads, decided in one place. The gate (body.ts, before the parser)
 * refuses every other body with a 415, and the parser is told to read as JSON exactly what this
 * list matches: a list for the gate and another for the parser let `application/ld+json` through
 * the gate and past the parser unread, so an identified vote counted as the caller's anonymous one.
 */

/**
 * The media types of a JSON body, as type-is patterns: `application/json` and every structured
 * syntax suffix `+json` type (RFC 6839: `application/ld+json`, `application/vnd.api+json`, ...).
 * Matched case-insensitively, parameters aside.
 */
export const JSON_BODY_TYPES: readonly string[] = ['application/json', '+json'];

/**
 * The charsets the parser decodes: it reads every body as UTF-8 (RFC 8259 section 8.1), so a body
 * declared in another charset would be misread (Latin-1's `é` turned into U+FFFD, UTF-16 into
 * "Malformed JSON") and is refused instead. No charset at all means UTF-8.
 */
const READ_CHARSETS = new Set(['', 'utf-8', 'utf8']);

/** Methods whose body is never read: a body sent with them is ignored, so they never answer 413 or 415. */
const BODILESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/**
 * Whether a request of this method has its body read (and so may be refused with 413 or 415),
 * whatever its route's contract says of a body: the body layer (body.ts) goes by it, and so does
 * the OpenAPI document's list of each operation's statuses (openapi.ts).
 */
export function readsBody(method: string): boolean {
  return !BODILESS_METHODS.has(method.toUpperCase());
}

/** Whether the request carries a body at all (a vote without one counts as `{}`). */
export function hasBody(ctx: AppContext): boolean {
  return ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length') || 0) > 0;
}

/**
 * Whether the parser reads this request's body as JSON: a body of a JSON type, or none at all
 * (type-is answers null without Content-Length or Transfer-Encoding), read as `{}`. An empty body
 * (`Content-Length: 0`) of another type is not read, and counts as `{}` too.
 */
export function readsAsJson(ctx: AppContext): boolean {
  return ctx.is([...JSON_BODY_TYPES]) !== false;
}

/** The 415 for a body the parser would not read as it was sent, or undefined when it reads it. */
export function unreadableBody(ctx: AppContext): AppError | undefined {
  if (!hasBody(ctx)) return undefined;
  if (!readsAsJson(ctx)) return new AppError(415, 'Unsupported Media Type: send the body as JSON with Content-Type: application/json');
  // Koa's `charset` is the parameter's value ('' when there is none or the header does not parse).
  if (!READ_CHARSETS.has(ctx.request.charset.toLowerCase())) return new AppError(415, UNSUPPORTED_CHARSET);
  return undefined;
}

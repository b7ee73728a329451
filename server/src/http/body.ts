import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import type { ValidationDetails } from '@feedbackd/sdk/contract';
import type { AppContext, AppState } from './context.js';
import { AppError, BODY_CUT_SHORT, UNSUPPORTED_CHARSET } from './errors.js';

/**
 * What a request's input must be before any handler or the contract reads it: a JSON object body
 * (spec part 4), within the limits PostgreSQL and a recursive serialiser can take. The body is
 * parsed and checked here, for every route; a route's query is checked by mount.ts with
 * `checkInputLimits` before its contract parses it.
 */

/**
 * Which request bodies the API reads, decided in one place. The gate (jsonBody, before the parser)
 * refuses every other body with a 415, and the parser is told to read as JSON exactly what this
 * list matches: a list for the gate and another for the parser let `application/ld+json` through
 * the gate and past the parser unread, so an identified vote counted as the caller's anonymous one.
 * The media types of a JSON body, as type-is patterns: `application/json` and every structured
 * syntax suffix `+json` type (RFC 6839: `application/ld+json`, `application/vnd.api+json`, ...).
 * Matched case-insensitively, parameters aside.
 */
const JSON_BODY_TYPES: readonly string[] = ['application/json', '+json'];

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
 * whatever its route's contract says of a body: the body layer (jsonBody) goes by it, and so does
 * the OpenAPI document's list of each operation's statuses (openapi.ts).
 */
export function readsBody(method: string): boolean {
  return !BODILESS_METHODS.has(method.toUpperCase());
}

/** Whether the request carries a body at all (a vote without one counts as `{}`). */
function hasBody(ctx: AppContext): boolean {
  return ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length') || 0) > 0;
}

/**
 * Whether the parser reads this request's body as JSON: a body of a JSON type, or none at all
 * (type-is answers null without Content-Length or Transfer-Encoding), read as `{}`. An empty body
 * (`Content-Length: 0`) of another type is not read, and counts as `{}` too.
 */
function readsAsJson(ctx: AppContext): boolean {
  return ctx.is([...JSON_BODY_TYPES]) !== false;
}

/** The 415 for a body the parser would not read as it was sent, or undefined when it reads it. */
function unreadableBody(ctx: AppContext): AppError | undefined {
  if (!hasBody(ctx)) return undefined;
  if (!readsAsJson(ctx)) return new AppError(415, 'Unsupported Media Type: send the body as JSON with Content-Type: application/json');
  // Koa's `charset` is the parameter's value ('' when there is none or the header does not parse).
  if (!READ_CHARSETS.has(ctx.request.charset.toLowerCase())) return new AppError(415, UNSUPPORTED_CHARSET);
  return undefined;
}

/** The largest request body accepted (larger ones get a 413). */
export const BODY_LIMIT = '1mb';

/** co-body's option (passed on by koa-bodyparser, which does not declare it): remove `__proto__` keys. */
const DROP_PROTO_KEYS = { onProtoPoisoning: 'remove' } as Partial<bodyParser.Options>;

/**
 * Request bodies are JSON (spec part 4). A body of another type or charset is refused with 415
 * instead of being read as empty (below: one list that both the gate and the parser go by); a
 * request with no body at all (an anonymous vote) counts as `{}`.
 */
export function jsonBody(): Middleware<AppState> {
  const parse = bodyParser({
    enableTypes: ['json'],
    // The parser reads as JSON what the gate below lets through, never by a list of its own (its
    // default list lacks `application/ld+json` and most `+json` types, which it read as `{}`).
    detectJSON: readsAsJson,
    jsonLimit: BODY_LIMIT,
    strict: true,
    // A `__proto__` key (at any depth) is valid JSON, and co-body's default refuses it with a
    // SyntaxError that read as "Malformed JSON". It is dropped instead of kept as data: it is the
    // one name that plain assignment (Object.assign, zod's copy of a record, a merge) turns into a
    // prototype change rather than a property, so every layer after this one would have to be
    // careful with it, and no caller needs it (a JavaScript caller cannot even put it in an object
    // literal). Dropping it is what "fields the contract does not know are ignored" does anyway.
    ...DROP_PROTO_KEYS,
    onerror: (error, ctx) => {
      // co-body marks size and encoding failures with a `type`; a JSON syntax error (thrown by
      // @hapi/bourne as a bare SyntaxError) or a non-object body in strict mode has none or a 400.
      const { type, status, body } = error as { type?: unknown; status?: unknown; body?: unknown };
      // The client hung up before its body was read: raw-body then finds the stream closed, or
      // gets Node's "aborted" (ECONNRESET, which would read as the database's). The request was
      // cut short, which is the client's doing, not an error of ours nor the database's.
      // (The request stream itself ends destroyed once read, so it is the connection that tells.)
      if (ctx.req.socket.destroyed) throw AppError.invalidInputMessage(BODY_CUT_SHORT);
      if (typeof type === 'string' && type !== 'entity.parse.failed') throw error;
      // Strict mode refuses valid JSON that is not an object or array (`null`, `42`, `"text"`): not malformed, just the wrong shape.
      const kind = typeof body === 'string' ? jsonKind(body) : undefined;
      if (kind) throw notAnObject(kind);
      if (error instanceof SyntaxError || status === 400 || type === 'entity.parse.failed') {
        throw AppError.invalidInputMessage('Malformed JSON in request body: send one JSON object');
      }
      throw error;
    },
  });
  return async (ctx, next) => {
    if (!readsBody(ctx.method)) return next();
    const refusal = unreadableBody(ctx);
    if (refusal) throw refusal;
    // Checked before anything downstream (idempotency's fingerprint included) walks the body.
    return parse(ctx, async () => {
      const problems = checkInputLimits(ctx.request.body ?? {});
      if (problems) throw AppError.invalidInput(problems);
      if (Array.isArray(ctx.request.body)) throw notAnObject('an array');
      await next();
    });
  };
}

/** Spec part 7's 400 for a body that is JSON but not one object. */
function notAnObject(kind: string): AppError {
  return AppError.invalidInputMessage(`The request body must be a JSON object, not ${kind}`);
}

/** What a valid JSON text holds, in words ("null", "a number", ...), or undefined when it is not valid JSON. */
function jsonKind(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? undefined : `a ${typeof value}`;
}

/**
 * Limits that bad input meets before any handler or the database sees it (docs/api.md, "Conventions").
 * PostgreSQL cannot store NUL in text or jsonb, nor a lone UTF-16 surrogate (`\ud800` without its
 * pair: not a character at all) in jsonb, and serialising a deeply nested value recurses once per
 * level: all are refused here as invalid input (400), never a 500 from further down.
 */
export const MAX_JSON_DEPTH = 32;

const NUL = '\u0000';
/** A surrogate that is not half of a pair (with the u flag, a pair is one code point and does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

/** What is wrong with one string (a value or a key), or undefined. */
function stringProblem(text: string, label: string): string | undefined {
  if (text.includes(NUL)) return `${label} must not contain NUL characters`;
  if (LONE_SURROGATE.test(text)) return `${label} must be valid Unicode (it contains a lone surrogate)`;
  return undefined;
}

/**
 * What is wrong with one value, in words for its field, or undefined when nothing is. Iterative: no
 * depth can overflow it. `depth` is the value's level counting the body as 1 (as docs/api.md
 * does), so a top-level field's value is at 2.
 */
function problemOf(value: unknown, label: string, depth: number): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = stringProblem(current, label);
      if (problem) return problem;
    } else if (current !== null && typeof current === 'object') {
      if (depth > MAX_JSON_DEPTH) return `${label} is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
      for (const [key, child] of Object.entries(current)) {
        const problem = stringProblem(key, label);
        if (problem) return problem;
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * Checks every field of a request body, query or path parameters, names included: field errors
 * keyed by the top-level name, as zod reports them, or undefined when the input is within the limits.
 */
export function checkInputLimits(input: unknown): ValidationDetails | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const problem = problemOf(input, 'The request body', 1);
    return problem ? { formErrors: [problem], fieldErrors: {} } : undefined;
  }
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(input)) {
    // A field name that is itself bad is reported in a form that can be sent back.
    const name = field.replaceAll(NUL, '').replace(/\p{Cs}/gu, '\ufffd');
    const problem = (name === field ? undefined : stringProblem(field, 'A field name')) ?? problemOf(value, field, 2);
    if (problem) fieldErrors[name] = [problem];
  }
  return Object.keys(fieldErrors).length > 0 ? { formErrors: [], fieldErrors } : undefined;
}

/** One path segment as the routers decode their parameters: one that does not decode stays as it is. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Checks a request's address, its path (each segment decoded, as a route's parameters are) and its
 * query, for what `checkInputLimits` refuses in a body: a NUL (`%00`), which no PostgreSQL text can
 * hold. For the routes that are not the contract's (the board's, the team's and the widget's pages,
 * kit/pages.ts, and the keyless paths): a contract route checks its parameters by name (mount.ts).
 * A percent-encoding that is not UTF-8 decodes to U+FFFD or stays as it is, so a lone surrogate
 * cannot come this way; it is refused all the same.
 */
export function checkAddress(ctx: AppContext): ValidationDetails | undefined {
  for (const segment of ctx.path.split('/')) {
    const problem = stringProblem(decodedSegment(segment), 'The path');
    if (problem) return { formErrors: [problem], fieldErrors: {} };
  }
  return checkInputLimits(ctx.query);
}

/** The first message of some problems (checkAddress's), for a page that shows one reason. */
export function firstProblem(details: ValidationDetails): string {
  return details.formErrors[0] ?? Object.values(details.fieldErrors)[0]?.[0] ?? 'Invalid input';
}

import type Router from '@koa/router';
import type { z } from 'zod';
import { ERROR_MESSAGES, type RouteDefinition } from '@feedbackd/sdk/contract';
import type { SqlPool, Statements } from '../db/pool.js';
import { UUID } from '../db/uuid.js';
import type { AppContext, AppState } from './context.js';
import { checkInputLimits } from './body.js';
import { AppError, toValidationDetails } from './errors.js';
import { IDEMPOTENCY_HEADER, type Answer, type IdempotentWrites } from './idempotent-writes.js';
import { blockNotFound, changelogNotFound, commentNotFound, deliveryNotFound, feedbackNotFound, webhookNotFound, type NotFound } from '../domain/errors.js';

/** What every contract reply is sent as (Koa's own `ctx.type = 'json'` gives the same header). */
const JSON_TYPE = 'application/json; charset=utf-8';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;


/** What a handler receives: the route's params, query and body, already parsed by the contract. */
export interface RouteInput<R extends RouteDefinition> {
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  body: Parsed<R['body']>;
}

/**
 * A reply body that is already JSON text (the hot statements build it in PostgreSQL), typed by the
 * value it encodes so the contract still types it. It is sent as it is.
 */
export class JsonText<T> {
  declare private readonly encodes?: T;
  constructor(readonly text: string) {}
}

/** What a handler returns: one of the route's statuses with a body typed by the contract. */
export type RouteReply<R extends RouteDefinition> = {
  [S in keyof R['responses'] & number]: { status: S; body: z.input<R['responses'][S]> | JsonText<z.input<R['responses'][S]>> };
}[keyof R['responses'] & number];

export interface MountOptions {
  /** The pool the handlers' statements run on, outside a request's transaction. */
  sql: SqlPool;
  /** Check every reply against the contract (tests turn this on; a mismatch is a 500 there). */
  validateResponses: boolean;
  /** Writes sent with an Idempotency-Key run through it (at most once, in one transaction with their record). */
  idempotent: IdempotentWrites;
}

/**
 * The ids a path may hold, and the 404 a malformed one is: a malformed id cannot name anything, so
 * it is the same answer as an unknown one (and never reaches PostgreSQL as a failing uuid cast).
 * Handlers receive them checked and lower-cased.
 */
const PATH_IDS: Record<string, () => NotFound> = { id: feedbackNotFound, commentId: commentNotFound, webhookId: webhookNotFound, deliveryId: deliveryNotFound, entryId: changelogNotFound, blockId: blockNotFound };

/**
 * Mounts one contract route: the handler sees validated input and returns a typed reply, so
 * handlers never touch `ctx.request.body` and never build error bodies. In order:
 * - a route whose `auth` is `secret` refuses a public key with 403, the one place that reads it
 *   (after the 401 of an unknown key and the rate limit, before the input is validated);
 * - the path parameters' and the query's limits (body.ts: no NUL, even in an id), then params,
 *   query and body parsed by the contract (a mismatch is a 400 with the spec's details shape), a
 *   malformed Idempotency-Key (400), then the path's ids (PATH_IDS);
 * - a write sent with an Idempotency-Key runs at most once (idempotent-writes.ts), any other
 *   request as it is; an answer that holds a secret (`holdsSecret`) is sent `no-store`.
 */
export function mount<R extends RouteDefinition>(
  router: Router<AppState>,
  route: R,
  options: MountOptions,
  handler: (input: RouteInput<NoInfer<R>>, ctx: AppContext, sql: Statements) => Promise<RouteReply<NoInfer<R>>>,
): void {
  const method = ({ GET: 'get', POST: 'post', PATCH: 'patch', DELETE: 'delete' } as const)[route.method];
  const secretOnly = route.auth === 'secret';
  // Only a write can be repeated by a retry: a read's Idempotency-Key is ignored, and so is that of
  // a write whose route takes none (a pull that waits must not hold the key's transaction open; an
  // answer that holds a secret must not be stored to be replayed).
  const isWrite = route.method !== 'GET' && route.idempotencyKey !== false;
  const pathIds = Object.keys(PATH_IDS).filter((name) => route.path.includes(`:${name}`));
  router[method](route.path, async (ctx) => {
    if (secretOnly && ctx.state.caller.kind !== 'secret') throw new AppError(403, ERROR_MESSAGES.secretKeyRequired);
    // A NUL in a path parameter (`%00`: the router decodes it) or in the query is refused here,
    // by the parameter's name, before any statement sees it (PostgreSQL text cannot hold one).
    const addressProblems = checkInputLimits(ctx.params) ?? checkInputLimits(ctx.query);
    if (addressProblems) throw AppError.invalidInput(addressProblems);
    const input = {
      params: route.params ? parseInput(route.params, ctx.params) : undefined,
      query: route.query ? parseInput(route.query, ctx.query) : undefined,
      body: route.body ? parseInput(route.body, ctx.request.body ?? {}) : undefined,
    } as RouteInput<R>;
    const key = isWrite ? ctx.get(IDEMPOTENCY_HEADER) : '';
    if (key !== '') options.idempotent.check(key);
    for (const name of pathIds) {
      const params = input.params as Record<string, string>;
      if (!UUID.test(params[name]!)) throw PATH_IDS[name]!();
      params[name] = params[name]!.toLowerCase();
    }
    // In the transaction of a write sent with an Idempotency-Key, or else on the pool.
    const answer = async (): Promise<Answer> => answerOf(route, options, await handler(input, ctx, ctx.state.tx?.sql ?? options.sql));
    let sent: Answer;
    if (key === '') sent = await answer();
    else {
      const once = await options.idempotent.run(ctx, key, async (tx) => {
        // The handler's statements and services run in the transaction that records the key.
        ctx.state.tx = tx;
        try {
          return await answer();
        } finally {
          ctx.state.tx = undefined;
        }
      });
      if (once.replayed) ctx.set('Idempotent-Replayed', 'true');
      sent = once;
    }
    // An answer that holds a secret (a signing secret, a sign-in token) is kept by no cache.
    if (route.holdsSecret) ctx.set('Cache-Control', 'no-store');
    // The header first: Koa's body setter then keeps it instead of guessing a type of its own,
    // and neither looks a MIME type up (a measurable share of a request's CPU).
    ctx.set('Content-Type', JSON_TYPE);
    ctx.status = sent.status;
    ctx.body = sent.text;
  });
}

/** Parses request input with a contract schema; a mismatch is a 400 with the spec's details shape. */
function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw AppError.invalidInput(toValidationDetails(result.error));
  return result.data;
}

/** A handler's reply as the text it is sent as, checked against the contract when asked. */
function answerOf(route: RouteDefinition, options: MountOptions, reply: { status: number; body: unknown }): Answer {
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body);
  if (options.validateResponses) {
    const schema = route.responses[reply.status];
    if (!schema) throw new Error(`${route.method} ${route.path} replied ${reply.status}, which its contract does not list`);
    // A reply that breaks the contract is the server's bug: a plain Error (500), never the
    // ZodError that the error handler would answer as the client's 400.
    const checked = schema.safeParse(JSON.parse(text));
    if (!checked.success) throw new Error(`${route.method} ${route.path} replied ${reply.status} against its contract: ${checked.error.message}`);
  }
  return { status: reply.status, text };
}

/** A reply whose body is JSON text already, typed as the route's body for that status. */
export function jsonReply<R extends RouteDefinition, const S extends keyof R['responses'] & number>(
  _route: R,
  status: S,
  text: string,
): { status: S; body: JsonText<z.input<R['responses'][S]>> } {
  return { status, body: new JsonText(text) };
}

/** Builds a handler's reply; keeps the status a literal so the contract can type the body. */
export function reply<const S extends number, B>(status: S, body: B): { status: S; body: B } {
  return { status, body };
}

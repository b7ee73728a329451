import type Router from '@koa/router';
import type { z } from 'zod';
import { ERROR_MESSAGES, type RouteDefinition } from '@feedbackd/sdk/contract';
import type { AppContext, AppState } from './context.js';
import { AppError } from './errors.js';
import type { Answer, IdempotentWrites } from './idempotent-writes.js';
import { checkInputLimits } from './input-limits.js';
import { parseInput } from './validate.js';

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
  /** Check every reply against the contract (tests turn this on; a mismatch is a 500 there). */
  validateResponses: boolean;
  /** Writes sent with an Idempotency-Key run through it (at most once, in one transaction with their record). */
  idempotent: IdempotentWrites;
}

/**
 * Mounts one contract route: the handler sees validated input and returns a typed reply, so
 * handlers never touch `ctx.request.body` and never build error bodies. A route whose `auth` is
 * `secret` refuses a public key with 403 here, the one place that reads it: after the 401 of an
 * unknown key (auth) and the rate limit, before the input is validated. Public routes pay nothing.
 */
export function mount<R extends RouteDefinition>(
  router: Router<AppState>,
  route: R,
  options: MountOptions,
  handler: (input: RouteInput<NoInfer<R>>, ctx: AppContext) => Promise<RouteReply<NoInfer<R>>>,
): void {
  const method = ({ GET: 'get', POST: 'post', PATCH: 'patch', DELETE: 'delete' } as const)[route.method];
  const secretOnly = route.auth === 'secret';
  router[method](route.path, async (ctx) => {
    if (secretOnly && ctx.state.caller.kind !== 'secret') throw new AppError(403, ERROR_MESSAGES.secretKeyRequired);
    const queryProblems = checkInputLimits(ctx.query);
    if (queryProblems) throw AppError.invalidInput(queryProblems);
    const input = {
      params: route.params ? parseInput(route.params, ctx.params) : undefined,
      query: route.query ? parseInput(route.query, ctx.query) : undefined,
      body: route.body ? parseInput(route.body, ctx.request.body ?? {}) : undefined,
    } as RouteInput<R>;
    const answer = async (): Promise<Answer> => answerOf(route, options, await handler(input, ctx));
    const key = options.idempotent.keyOf(ctx);
    let sent: Answer;
    if (key === undefined) sent = await answer();
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
    // The header first: Koa's body setter then keeps it instead of guessing a type of its own,
    // and neither looks a MIME type up (a measurable share of a request's CPU).
    ctx.set('Content-Type', JSON_TYPE);
    ctx.status = sent.status;
    ctx.body = sent.text;
  });
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

import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { PAGE_SIZE_MAX } from '@feedbackd/sdk/contract';
import { BODY_LIMIT } from '../http/body.js';
import type { AppContext, AppState } from '../http/context.js';

/*
 * What the form posts of the board and of the team's pages need alike: the form read, its fields,
 * and the answer that sends the browser on (post, redirect, get).
 */

/**
 * A form's body, urlencoded, within the API's body limit (a description may be 100,000 characters).
 * A repeated field is a list of up to a page of values (the inbox's selected items): qs's own limit,
 * 20, turned a larger selection into an object, which the bulk change refused as "no item selected".
 */
export function formBody(): Middleware<AppState> {
  // co-body hands `queryString` to qs; koa-bodyparser's types leave it out.
  const options: bodyParser.Options & { queryString: { arrayLimit: number } } = { enableTypes: ['form'], formLimit: BODY_LIMIT, queryString: { arrayLimit: PAGE_SIZE_MAX } };
  return bodyParser(options);
}

/** A field of the posted form: text, a list (a repeated field) or an object, which the contract will refuse; undefined when absent. */
export function formField(ctx: AppContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  return body && Object.hasOwn(body, name) ? body[name] : undefined;
}

/** Post, then redirect, then get: 303, so a reload does not post again. */
export function seeOther(ctx: AppContext, path: string): void {
  ctx.status = 303;
  ctx.redirect(path);
}

/**
 * Where a form may send the browser back: a path under `root` (a board's, the team's) on this
 * server, never another site (`//host`, `/\host`, a scheme) nor a header break; undefined else.
 */
export function returnPathUnder(value: unknown, root: string): string | undefined {
  if (typeof value !== 'string' || value.length > 2_000) return undefined;
  if (value !== root && !value.startsWith(`${root}/`) && !value.startsWith(`${root}?`)) return undefined;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  const base = 'http://return.invalid';
  const url = new URL(value, base);
  return url.origin === base ? url.pathname + url.search : undefined;
}

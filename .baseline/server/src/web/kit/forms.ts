import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import type { z } from 'zod';
import { PAGE_SIZE_MAX } from '@feedbackd/sdk/contract';
import { BODY_LIMIT } from '../../http/body.js';
import type { AppContext, AppState } from '../../http/context.js';
import { toValidationDetails } from '../../http/errors.js';
import type { Problem } from './views/parts.js';

/*
 * What the form posts of the board and of the team's pages need alike: the form read, its fields
 * bound and checked (formInput), and the answer that sends the browser on (post, redirect, get).
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

/** The base the return paths are resolved against: a name no request can have. */
const RETURN_BASE = 'http://return.invalid';
/** What no return path may hold as it is: a backslash (a slash to a browser), C0 and C1 controls, DEL. */
const UNSAFE_RAW = /[\\\u0000-\u001f\u007f-\u009f]/;
/** What its path may not say in percent-encoding either: a backslash, C0 controls, DEL. */
const UNSAFE_ENCODED = /%(?:5c|[01][0-9a-f]|7f)/i;

/**
 * Where a form (a vote's `return`, the team's bulk change) or a sign-in link (`to`) may send the
 * browser back: a path under `root` (a board's, the team's) on this server, never another site;
 * undefined else. The path is normalised first and checked after, as the browser will read it: a
 * URL parser resolves dot segments, `%2e` among them, so `/b/x/../..//evil.example/` is
 * `//evil.example/`, another host, once resolved. So the value must be a path (one leading slash),
 * holds no backslash nor control character (a URL parser drops tabs and newlines, or reads a
 * backslash as a slash), and what it resolves to must still be on this origin, under `root`, and
 * not start with `//`. The answer is the resolved path and query, which resolves to itself again.
 */
export function returnPathUnder(value: unknown, root: string): string | undefined {
  if (typeof value !== 'string' || value.length > 2_000) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || UNSAFE_RAW.test(value)) return undefined;
  const query = value.search(/[?#]/);
  if (UNSAFE_ENCODED.test(query === -1 ? value : value.slice(0, query))) return undefined;
  let url: URL;
  try {
    url = new URL(value, RETURN_BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== RETURN_BASE || url.username !== '' || url.password !== '') return undefined;
  const path = url.pathname;
  if (path.startsWith('//') || (path !== root && !path.startsWith(`${root}/`))) return undefined;
  return path + url.search;
}

/** What a form asked for, as text, to fill the form again after a refusal (a repeated field is no text). */
export type FormValues = Record<string, string | undefined>;

/** A form's input: checked, or refused with the problems to show beside its controls; its values as typed either way. */
export type FormResult<T> = { ok: true; data: T; values: FormValues } | { ok: false; problems: Problem[]; values: FormValues };

/** Reads and checks a posted form (formInput). */
export type FormInput<T> = (ctx: AppContext) => FormResult<T>;

/** What a form's input is once checked. */
export type FormData<F> = F extends FormInput<infer T> ? T : never;

export interface FormInputOptions {
  /** The form's fields: only these are read, whatever else it sends (no metadata, no endUser). */
  fields: readonly string[];
  /** The id of a field's control, where it is not the field's name (several fields may be about one control). */
  controls?: Readonly<Record<string, string>>;
  /** What the page says about a field, in place of the schema's messages (the API's words are for programs). */
  say?: Readonly<Record<string, string>>;
}

/**
 * A form's one way in (as Fider's actions: bind, then validate, then one way to answer a refusal,
 * pages.ts): its `fields` bound from the body, checked by `schema` (the contract's schemas, so a
 * form refuses what the API refuses, with its messages), and each problem tied to the control it
 * is about, so that the error summary links to it; a problem about no control is about the form.
 */
export function formInput<S extends z.ZodType>(schema: S, options: FormInputOptions): FormInput<z.output<S>> {
  const { fields, controls = {}, say = {} } = options;
  return (ctx) => {
    const bound = Object.fromEntries(fields.map((name) => [name, formField(ctx, name)]));
    const values = Object.fromEntries(Object.entries(bound).map(([name, value]) => [name, typeof value === 'string' ? value : undefined]));
    const parsed = schema.safeParse(bound);
    if (parsed.success) return { ok: true, data: parsed.data, values };
    const details = toValidationDetails(parsed.error);
    const problems: Problem[] = [
      ...details.formErrors.map((message) => ({ message })),
      ...Object.entries(details.fieldErrors).flatMap(([field, messages]) => {
        const control = fields.includes(field) ? (controls[field] ?? field) : undefined;
        return (say[field] ? [say[field]] : messages).map((message) => ({ field: control, message }));
      }),
    ];
    return { ok: false, problems, values };
  };
}

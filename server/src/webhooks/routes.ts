import type Router from '@koa/router';
import { routes, WEBHOOK_ROTATION_GRACE_DEFAULT_SECONDS } from '@feedbackd/sdk/contract';
import { newWebhookSecret } from '@feedbackd/sdk/webhooks';
import type { AppContext, AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { webhookNotFound } from '../http/item-ids.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import { CREATE_ENDPOINT, DELETE_ENDPOINT, GET_ENDPOINT, LIST_ENDPOINTS, ROTATE_SECRET, UPDATE_ENDPOINT } from './endpoints.sql.js';
import { checkWebhookUrl } from './safe-target.js';

export interface WebhookRouteOptions {
  /** Allow endpoints on loopback and private networks (`serve --webhooks-allow-private`). */
  allowPrivate: boolean;
}

/**
 * The webhook endpoints' API (docs/webhooks.md): secret keys only (`auth: 'secret'` in the route
 * table). Statements in endpoints.sql.ts; the URL is checked against the private network here
 * (safe-target.ts), and again on the address each delivery connects to.
 */
export function mountWebhookRoutes(router: Router<AppState>, options: MountOptions, webhooks: WebhookRouteOptions): void {
  mount(router, routes.createWebhook, options, async ({ body }, ctx, sql) => {
    const url = checkedUrl(body.url, webhooks);
    const secret = newWebhookSecret();
    const [row] = await sql.query<{ body: string }>('', CREATE_ENDPOINT, [projectOf(ctx), url, body.events ?? null, body.description || null, body.format ?? 'standard', secret]);
    return jsonReply(routes.createWebhook, 201, `{"webhook":${row!.body},"secret":${JSON.stringify(secret)}}`);
  });

  mount(router, routes.listWebhooks, options, async (_input, ctx, sql) => {
    const [row] = await sql.query<{ body: string }>('', LIST_ENDPOINTS, [projectOf(ctx)]);
    return jsonReply(routes.listWebhooks, 200, `{"items":${row!.body}}`);
  });

  mount(router, routes.getWebhook, options, async ({ params }, ctx, sql) => {
    const [row] = await sql.query<{ body: string }>('', GET_ENDPOINT, [projectOf(ctx), params.webhookId]);
    if (!row) throw webhookNotFound();
    return jsonReply(routes.getWebhook, 200, `{"webhook":${row.body}}`);
  });

  mount(router, routes.updateWebhook, options, async ({ params, body }, ctx, sql) => {
    const url = body.url === undefined ? null : checkedUrl(body.url, webhooks);
    const description = body.description === undefined ? null : (body.description ?? '');
    const values = [projectOf(ctx), params.webhookId, url, body.events ?? null, description, body.format ?? null, body.enabled ?? null, body.events !== undefined];
    const [row] = await sql.query<{ body: string }>('', UPDATE_ENDPOINT, values);
    if (!row) throw webhookNotFound();
    return jsonReply(routes.updateWebhook, 200, `{"webhook":${row.body}}`);
  });

  mount(router, routes.deleteWebhook, options, async ({ params }, ctx, sql) => {
    const [row] = await sql.query<{ id: string }>('', DELETE_ENDPOINT, [projectOf(ctx), params.webhookId]);
    if (!row) throw webhookNotFound();
    return reply(200, { id: row.id, deleted: true as const });
  });

  mount(router, routes.rotateWebhookSecret, options, async ({ params, body }, ctx, sql) => {
    const secret = newWebhookSecret();
    const grace = body.graceSeconds ?? WEBHOOK_ROTATION_GRACE_DEFAULT_SECONDS;
    const [row] = await sql.query<{ body: string }>('', ROTATE_SECRET, [projectOf(ctx), params.webhookId, secret, grace]);
    if (!row) throw webhookNotFound();
    return jsonReply(routes.rotateWebhookSecret, 200, `{"webhook":${row.body},"secret":${JSON.stringify(secret)}}`);
  });
}

/** The URL as stored, or the 400 that says what is wrong with it. */
function checkedUrl(text: string, webhooks: WebhookRouteOptions): string {
  const checked = checkWebhookUrl(text, { allowPrivate: webhooks.allowPrivate });
  if (!checked.ok) throw AppError.invalidInput({ formErrors: [], fieldErrors: { url: [checked.reason] } });
  return checked.url.toString();
}

function projectOf(ctx: AppContext): string {
  return ctx.state.caller.projectId;
}

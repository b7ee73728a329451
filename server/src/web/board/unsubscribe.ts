import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { unsubscribe } from '../../domain/subscriptions/subscriptions.sql.js';
import { unsubscribeKey, verifyUnsubscribe, type UnsubscribeClaims } from '../../domain/subscriptions/unsubscribe-token.js';
import type { AssetPaths } from '../kit/assets.js';
import { chosenI18n } from '../kit/locale-choice.js';
import { sendPage } from '../kit/pages.js';
import { boardPaths } from '../../board-paths.js';
import { unsubscribePage } from './views/unsubscribe-page.js';

/*
 * The mail's one-click unsubscribe (docs/notifications.md, RFC 8058): /b/:slug/unsubscribe?token=…
 * GET shows what the link does, with a button; POST does it: from that button (then back to the
 * GET, post-redirect-get) or straight from a mail client (`List-Unsubscribe=One-Click`, answered
 * 200). The signed token is the only permission, so it works for a board that is off, without a
 * session, and from any origin; it stops mail and does nothing else. An expired one
 * (domain/subscriptions/unsubscribe-token.ts) is a 410 page that says so.
 */

/** The project and item a valid token of board `slug` names, with its names for the page. */
interface Found {
  claims: UnsubscribeClaims;
  project: string;
  locale: string | null;
  itemTitle: string | null;
}

const LOOK_UP = `select p.name, p.board_locale, (select f.title from feedback f where f.id = $3::uuid and f.project_id = p.id) as item_title
  from projects p join end_users u on u.project_id = p.id and u.id = $2::uuid where p.id = $1::uuid and p.slug = $4`;

export function unsubscribeRoutes(sql: Pick<SqlPool, 'query'>, assets: AssetPaths, serverSecret: Buffer, limit: (ctx: AppContext) => Promise<void>) {
  const key = unsubscribeKey(serverSecret);
  const find = async (ctx: AppContext): Promise<Found | 'expired' | undefined> => {
    const token = typeof ctx.query['token'] === 'string' ? ctx.query['token'] : '';
    const claims = token ? await verifyUnsubscribe(key, token) : undefined;
    if (!claims || claims === 'expired') return claims;
    const [row] = await sql.query<{ name: string; board_locale: string | null; item_title: string | null }>('', LOOK_UP, [claims.projectId, claims.endUserId, claims.feedbackId, String(ctx.params.slug)]);
    return row && { claims, project: row.name, locale: row.board_locale, itemTitle: claims.feedbackId ? (row.item_title ?? '') : null };
  };
  const render = (ctx: AppContext, found: Found | 'expired' | undefined, state: 'ask' | 'done') => {
    const slug = String(ctx.params.slug);
    // An expired link is one this server made, whose time has passed (410, as a used sign-in link); anything else names nothing (404).
    if (found === 'expired') ctx.status = 410;
    else if (!found) ctx.status = 404;
    const valid = typeof found === 'object' ? found : undefined;
    const action = boardPaths.unsubscribe(slug, typeof ctx.query['token'] === 'string' ? ctx.query['token'] : '');
    return sendPage(ctx, unsubscribePage({ assets, i18n: chosenI18n(ctx, valid?.locale), slug, project: valid?.project, itemTitle: valid?.itemTitle, state: valid ? state : found === 'expired' ? 'expired' : 'invalid', action }));
  };
  return {
    /** GET: the question, or (after the button's post) what was done. */
    async read(ctx: AppContext): Promise<void> {
      const found = await find(ctx);
      await render(ctx, found, ctx.query['done'] === '1' ? 'done' : 'ask');
    },
    /** POST: unsubscribes; the page's button comes back to the GET, a mail client gets its 200. */
    async post(ctx: AppContext): Promise<void> {
      await limit(ctx);
      const found = await find(ctx);
      if (typeof found === 'object') await unsubscribe(sql, found.claims);
      // A browser's form post (it navigates) comes back to the GET; a mail client's POST gets the page at once.
      if (typeof found === 'object' && ctx.get('Sec-Fetch-Mode') === 'navigate') {
        ctx.status = 303;
        ctx.redirect(`${boardPaths.unsubscribe(String(ctx.params.slug), String(ctx.query['token']))}&done=1`);
        return;
      }
      await render(ctx, found, 'done');
    },
  };
}

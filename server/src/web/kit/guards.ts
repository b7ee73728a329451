import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { RateLimiter } from '../../limits/lease-client.js';
import type { Logger } from '../../logger.js';
import { clientIp } from '../../http/edge.js';
import { exactOrigin } from '../../origins.js';
import { countRefusal } from '../../metrics/limit-metrics.js';

/**
 * The board's pages allow only what they use: our own stylesheet, script and forms; images of our
 * own or inline data; no frame may hold them, and no <base> may move their links. Nothing inline
 * runs, so text a visitor submitted cannot run as script even if it ever escaped the templates.
 */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy("'none'");

function contentSecurityPolicy(frameAncestors: string, styleHash = ''): string {
  const styles = styleHash === '' ? "'self'" : `'self' ${styleHash}`;
  return `default-src 'self'; script-src 'self'; style-src ${styles}; img-src 'self' data:; form-action 'self'; frame-ancestors ${frameAncestors}; base-uri 'none'`;
}

/**
 * A board's own policy. A project's board may be framed by the origins its operator allowed
 * (`feedback board embed`), to show it inside the host app; every other site is still refused
 * (clickjacking). The origins were checked when set (domain/projects/board-settings.service.ts); they are
 * checked again here, so that only exact origins reach the header whatever a row holds (one stored
 * by an older version, which took `https://*`, or written by hand): none left is `'none'`. And the
 * one inline stylesheet its brand adds (its accent colour, domain/projects/brand/accent.ts) is allowed by
 * its hash (`'sha256-…'`), nothing else inline: a page needs no request more for its colours.
 */
export function projectPolicy(ctx: AppContext, project: { frameOrigins: readonly string[]; styleHash?: string | undefined }): void {
  if (project.frameOrigins.length === 0 && !project.styleHash) return;
  const exact = project.frameOrigins.map(exactOrigin).filter((origin) => origin !== undefined);
  ctx.set('Content-Security-Policy', contentSecurityPolicy(exact.length > 0 ? exact.join(' ') : "'none'", project.styleHash));
}

/** The headers of every page and asset of the board (edge.ts has set nosniff and the request id already). */
export function setPageHeaders(ctx: AppContext): void {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
}

/** What a refused cross-site post is told. */
export const CROSS_SITE_REFUSAL = 'The form was sent from another site. Open the board and send it from there.';

/**
 * A form post must come from one of this server's own pages: otherwise any site could make its
 * visitors' browsers vote or post here (cross-site request forgery; the anonymous voter is the
 * visitor's address, which such a post carries). A browser says where a request comes from in
 * `Sec-Fetch-Site` (which no page can set), or else in `Origin`; a post with neither is refused
 * too, since every browser sends one of them on a form post. `Sec-Fetch-Site` is read first: behind
 * a TLS proxy that is not trusted (--trust-proxy), this server sees http while `Origin` says https.
 * With a public URL (`serve --public-url`), `Origin` must be that origin, and the request came by
 * that host (checkPublicHost, before any page): "same-origin" then means the public origin, not
 * whatever name the browser used (a DNS-rebinding page is "same-origin" with itself).
 */
export function checkSameOrigin(ctx: AppContext, publicOrigin?: string): void {
  const site = ctx.get('sec-fetch-site');
  if (site !== '') {
    if (site === 'same-origin') return;
    throw new AppError(403, CROSS_SITE_REFUSAL);
  }
  // This server's own origin, built here: Koa 3's `ctx.origin` is the request's Origin header.
  const origin = ctx.get('origin');
  if (origin !== '' && origin === (publicOrigin ?? `${ctx.protocol}://${ctx.host}`)) return;
  throw new AppError(403, CROSS_SITE_REFUSAL);
}

/**
 * The Host allow-list (`serve --public-url`): a page is answered only when asked for by the public
 * URL's host (the Host header, or X-Forwarded-Host from a trusted proxy), the scheme's usual port
 * or none being the same. A DNS-rebinding page (a name of the attacker's, made to point at this
 * server, say on an intranet) asks with its own name: refused with 421 Misdirected Request, so it
 * can neither read the pages nor post to them. Without a public URL every host is answered.
 */
export function checkPublicHost(ctx: AppContext, publicOrigin: string | undefined): void {
  if (publicOrigin === undefined) return;
  const expected = new URL(publicOrigin);
  let host: string | undefined;
  try {
    host = ctx.host === '' ? undefined : new URL(`${expected.protocol}//${ctx.host}`).host;
  } catch {
    host = undefined;
  }
  if (host === expected.host) return;
  throw new AppError(421, `This server's pages are at ${publicOrigin}: open them there.`);
}

/** A budget of posts per address: the board's posts, its comments (a budget apart), the team's sign-ins and posts. */
export type PostScope = 'board' | 'comment' | 'team';

/**
 * The board's posts (votes, submissions) spend the budget of the caller's address in the server's
 * rate limiter (the API keys' one, so the same store: this process, the cluster's bank or Redis),
 * under a key of their own (`scope`: the team's pages spend a budget apart from the board's). A
 * store that fails lets the post through, as for API keys.
 */
export function postLimit(limiter: RateLimiter | undefined, logger: Logger, scope: PostScope = 'board'): (ctx: AppContext) => Promise<void> {
  const spend = spendBudget(limiter, logger, scope);
  return async (ctx) => {
    const retryAfter = await spend(ctx);
    if (retryAfter === undefined) return;
    throw new AppError(429, 'Too many posts from your address in a short time.', undefined, { 'Retry-After': String(retryAfter) });
  };
}

/**
 * Spends one post of the address's budget in `scope`: undefined while it lasts, else the seconds
 * until it comes back (a Retry-After), the refusal counted. A form that must come back filled
 * (the board's comments) answers the refusal itself; postLimit throws it as a refusal page.
 */
export function spendBudget(limiter: RateLimiter | undefined, logger: Logger, scope: PostScope): (ctx: AppContext) => Promise<number | undefined> {
  if (!limiter) return () => Promise.resolve(undefined);
  return async (ctx) => {
    let state;
    try {
      state = await limiter.consume(`${scope}:${clientIp(ctx)}`);
    } catch (error) {
      logger.warn(`rate limiter store failed; ${scope} post served without a limit`, { id: ctx.state.requestId, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
    if (state.allowed) return undefined;
    countRefusal(scope);
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  };
}

import { TeamMemberNameSchema } from '@feedbackd/sdk/contract';
import { hashApiKey, looksLikeApiKey } from '../../http/api-key-format.js';
import type { AppContext } from '../../http/context.js';
import type { AssetPaths } from '../kit/assets.js';
import type { SafeHtml } from '../kit/html.js';
import type { Problem } from '../kit/views/parts.js';
import { teamErrorPage, teamPaths } from './layout.js';
import { formField, seeOther } from '../kit/forms.js';
import type { TeamSessions } from './session.js';
import { signInPage } from './views/sign-in-page.js';

/** How to get a new link, in every refusal of one. */
const NEW_LINK = 'Run `feedback open` on the server (or with a secret key) for a new link: each works once, for 10 minutes.';

/**
 * The ways in (docs/triage.md): a one-time link, or a secret key typed into the form. Either
 * opens a session (its cookie set by session.ts) and sends the browser to the inbox.
 */
export function signIn(sessions: TeamSessions, assets: AssetPaths) {
  return {
    /**
     * GET /team/sign-in: with `?token=`, uses the link (once: the statement that checks it marks
     * it used) and goes to the inbox; a used, expired or unknown link is a page that says so and
     * how to get another. Without a token, the sign-in form.
     */
    async page(ctx: AppContext): Promise<SafeHtml | undefined> {
      const token = ctx.query.token;
      if (token === undefined) {
        const notice =
          ctx.query['signed-out'] !== undefined ? 'You have signed out.'
          : ctx.query.ended !== undefined ? 'Your session has ended (signed out elsewhere, idle for too long, or its key was revoked). Sign in again.'
          : undefined;
        return signInPage({ assets, notice });
      }
      // A HEAD (a link checker, a preview) only looks: it must not use up the link it was given.
      if (ctx.method === 'HEAD') return signInPage({ assets });
      if (typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token) && (await sessions.openWithLink(ctx, token))) {
        seeOther(ctx, teamPaths.inbox);
        return undefined;
      }
      const state = typeof token === 'string' ? await sessions.linkState(token) : 'unknown';
      if (state === 'unknown') {
        ctx.status = 401;
        return teamErrorPage(401, `This sign-in link is not one this server made (it may have been cut short when copied). ${NEW_LINK}`, assets);
      }
      ctx.status = 410;
      return teamErrorPage(410, `This sign-in link has ${state === 'used' ? 'been used already' : 'expired'}. ${NEW_LINK}`, assets);
    },

    /**
     * POST /team/sign-in: a secret key, once. A public key, an unknown or a revoked one is the
     * form again (400 or 401), empty: the key is never written back into the page.
     */
    async withKey(ctx: AppContext): Promise<SafeHtml | undefined> {
      const value = formField(ctx, 'key');
      const key = typeof value === 'string' ? value.trim() : '';
      const typed = formField(ctx, 'name');
      const nameText = typeof typed === 'string' ? typed : undefined;
      const name = nameText === undefined || nameText.trim() === '' ? undefined : TeamMemberNameSchema.safeParse(nameText);
      const refuse = (status: 400 | 401, problem: Problem): SafeHtml => {
        ctx.status = status;
        return signInPage({ assets, problems: [problem], name: nameText });
      };
      if (key === '') return refuse(400, { field: 'key', message: 'Enter a secret key' });
      if (key.startsWith('pk_')) return refuse(400, { field: 'key', message: 'That is a public key (pk_): the team pages need a secret key (sk_)' });
      if (name && !name.success) return refuse(400, { field: 'name', message: name.error.issues[0]?.message ?? 'name is not valid' });
      if (!looksLikeApiKey(key) || !(await sessions.openWithKey(ctx, hashApiKey(key), name?.data ?? null))) {
        return refuse(401, { field: 'key', message: 'That key is not a secret key of this server, or it has been revoked' });
      }
      seeOther(ctx, teamPaths.inbox);
      return undefined;
    },

    /** POST /team/sign-out: ends the session on the server (its cookie works no more, wherever it was copied), then the sign-in page. */
    async signOut(ctx: AppContext): Promise<undefined> {
      await sessions.end(ctx);
      seeOther(ctx, `${teamPaths.signIn}?signed-out`);
      return undefined;
    },
  };
}

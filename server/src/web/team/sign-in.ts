import { TeamMemberNameSchema } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import { hashApiKey, looksLikeApiKey } from '../../http/api-key-format.js';
import type { AppContext } from '../../http/context.js';
import type { TeamAssetPaths } from './team-assets.js';
import type { SafeHtml } from '../kit/html.js';
import { teamErrorPage, teamPaths } from './layout.js';
import { formInput, seeOther, type FormData, type FormValues } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import { chosenI18n } from '../kit/locale-choice.js';
import type { TeamSessions } from './session.js';
import { signInPage } from './views/sign-in-page.js';

/**
 * The sign-in form: a secret key (a public one is refused by name), then an optional name, which
 * is checked only once the key is a key, so the form says one thing at a time.
 */
export const signInForm = formInput(
  z
    .looseObject({
      key: z.preprocess(
        (value) => (typeof value === 'string' ? value.trim() : ''),
        z
          .string()
          .min(1, { error: 'Enter a secret key' })
          .refine((key) => !key.startsWith('pk_'), { error: 'That is a public key (pk_): the team pages need a secret key (sk_)' }),
      ),
    })
    .pipe(
      z.object({
        key: z.string(),
        // An empty name is no name; a list of names is none either.
        name: z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value : undefined), TeamMemberNameSchema.optional()),
      }),
    ),
  { fields: ['key', 'name'] },
);

/** How to get a new link, in every refusal of one. */
const NEW_LINK = 'Run `feedback open` on the server (or with a secret key) for a new link: each works once, for 10 minutes.';

/**
 * The ways in (docs/triage.md): a one-time link, or a secret key typed into the form. Either
 * opens a session (its cookie set by session.ts) and sends the browser to the inbox.
 */
export function signIn(sessions: TeamSessions, assets: TeamAssetPaths) {
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
        return signInPage({ assets, notice, i18n: chosenI18n(ctx) });
      }
      // A HEAD (a link checker, a preview) only looks: it must not use up the link it was given.
      if (ctx.method === 'HEAD') return signInPage({ assets, i18n: chosenI18n(ctx) });
      if (typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token) && (await sessions.openWithLink(ctx, token))) {
        seeOther(ctx, teamPaths.inbox);
        return undefined;
      }
      const state = typeof token === 'string' ? await sessions.linkState(token) : 'unknown';
      if (state === 'unknown') {
        ctx.status = 401;
        return teamErrorPage(401, `This sign-in link is not one this server made (it may have been cut short when copied). ${NEW_LINK}`, assets, undefined, chosenI18n(ctx));
      }
      ctx.status = 410;
      return teamErrorPage(410, `This sign-in link has ${state === 'used' ? 'been used already' : 'expired'}. ${NEW_LINK}`, assets, undefined, chosenI18n(ctx));
    },

    /**
     * POST /team/sign-in, its form checked (signInForm): a key that opens no session (unknown,
     * revoked) is the form again (401), empty: the key is never written back into the page.
     */
    async withKey(ctx: AppContext, { key, name }: FormData<typeof signInForm>, values: FormValues): Promise<SafeHtml | undefined> {
      if (!looksLikeApiKey(key) || !(await sessions.openWithKey(ctx, hashApiKey(key), name ?? null))) {
        ctx.status = 401;
        return signInPage({ assets, problems: [{ field: 'key', message: 'That key is not a secret key of this server, or it has been revoked' }], name: values.name, i18n: chosenI18n(ctx) });
      }
      seeOther(ctx, teamPaths.inbox);
      return undefined;
    },

    /** A refused sign-in form (400): the form again, with the name as typed and never the key. */
    refused(ctx: AppContext, { problems, values }: FormRefusal): SafeHtml {
      return signInPage({ assets, problems, name: values.name, i18n: chosenI18n(ctx) });
    },

    /** POST /team/sign-out: ends the session on the server (its cookie works no more, wherever it was copied), then the sign-in page. */
    async signOut(ctx: AppContext): Promise<undefined> {
      await sessions.end(ctx);
      seeOther(ctx, `${teamPaths.signIn}?signed-out`);
      return undefined;
    },
  };
}

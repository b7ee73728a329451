import { TeamMemberNameSchema } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import { hashApiKey, looksLikeApiKey } from '../../domain/projects/api-key-format.js';
import type { AppContext } from '../../http/context.js';
import type { TeamAssetPaths } from './team-assets.js';
import type { SafeHtml } from '../kit/html.js';
import { teamErrorPage, teamPaths } from './layout.js';
import { formInput, seeOther, type FormData, type FormValues } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import { chosenI18n } from '../kit/locale-choice.js';
import type { TeamSessions } from './session.js';
import { signInPage } from './views/sign-in-page.js';
import { problemsIn, teamProblem } from './team-problems.js';

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
          .min(1, { error: teamProblem('team.problem.enterKey') })
          .refine((key) => !key.startsWith('pk_'), { error: teamProblem('team.problem.publicKey') }),
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
        const i18n = chosenI18n(ctx);
        const notice =
          ctx.query['signed-out'] !== undefined ? i18n.t('team.signIn.signedOut')
          : ctx.query.ended !== undefined ? i18n.t('team.signIn.ended')
          : undefined;
        return signInPage({ assets, notice, i18n });
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
        const i18n = chosenI18n(ctx);
        return signInPage({ assets, problems: [{ field: 'key', message: i18n.text('team.problem.wrongKey') }], name: values.name, i18n });
      }
      seeOther(ctx, teamPaths.inbox);
      return undefined;
    },

    /** A refused sign-in form (400): the form again, with the name as typed and never the key. */
    refused(ctx: AppContext, { problems, values }: FormRefusal): SafeHtml {
      const i18n = chosenI18n(ctx);
      return signInPage({ assets, problems: problemsIn(i18n, problems), name: values.name, i18n });
    },

    /** POST /team/sign-out: ends the session on the server (its cookie works no more, wherever it was copied), then the sign-in page. */
    async signOut(ctx: AppContext): Promise<undefined> {
      await sessions.end(ctx);
      seeOther(ctx, `${teamPaths.signIn}?signed-out`);
      return undefined;
    },
  };
}

import { DISPLAY_NAME_MAX_LENGTH } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, type HtmlValue, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { field } from '../../kit/views/fields.js';
import { errorSummary, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';

export interface SignInView {
  assets: TeamAssetPaths;
  /** Why the form is shown again, each about its control (`key`, `name`). */
  problems?: Problem[] | undefined;
  /** The name as typed, to fill in again (a name is no secret; the key never is filled in). */
  name?: string | undefined;
  notice?: HtmlValue;
  /** The page's language (kit/locale-choice.ts); English when not given. */
  i18n?: I18n | undefined;
}

/**
 * GET /team/sign-in (and a refused POST): the two ways in. The first is a one-time link from the
 * command line, which needs no form at all; the second a secret key, typed once into a password
 * field that is never filled back in (not even after a refusal) and that browsers are asked not
 * to remember, with an optional name that signs the member's replies and changes.
 */
export function signInPage(view: SignInView): SafeHtml {
  const problems = view.problems ?? [];
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  // The command is the same in every language: it is written in the page's language only where it names you.
  const command = html`<code>FEEDBACK_URL=https://your-server FEEDBACK_API_KEY=sk_&hellip; feedback open</code>`;
  const body = html`<h1>${t('team.signIn.heading')}</h1>
${errorSummary(problems, i18n)}
${view.notice && html`<p class="notice" role="status">${view.notice}</p>`}
<p>${t('team.signIn.quickest')}</p>
<pre><code>${t('team.signIn.command')}</code></pre>
<p class="hint">${t('team.signIn.linkHint', { command })}</p>
<h2>${t('team.signIn.withKey')}</h2>
<form method="post" action="${teamPaths.signIn}" novalidate>
${field('key', t('team.signIn.key'), problems, (describedBy) => html`<input type="password" id="key" name="key" autocomplete="off" spellcheck="false" required${describedBy}>`, t('team.signIn.keyHint'), i18n)}
${field('name', t('team.signIn.name'), problems, (describedBy) => html`<input type="text" id="name" name="name" value="${view.name ?? ''}" maxlength="${DISPLAY_NAME_MAX_LENGTH}" autocomplete="name"${describedBy}>`, t('team.signIn.nameHint'), i18n)}
<button type="submit" class="button">${t('team.signIn.submit')}</button>
</form>`;
  return teamPage({ title: i18n.text(problems.length > 0 ? 'team.signIn.titleWithErrors' : 'team.signIn.title'), assets: view.assets, body, i18n });
}

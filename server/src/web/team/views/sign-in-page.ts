import { DISPLAY_NAME_MAX_LENGTH } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { field } from '../../kit/views/fields.js';
import { errorSummary, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';

export interface SignInView {
  assets: TeamAssetPaths;
  /** Why the form is shown again, each about its control (`key`, `name`). */
  problems?: Problem[] | undefined;
  /** The name as typed, to fill in again (a name is no secret; the key never is filled in). */
  name?: string | undefined;
  notice?: string | undefined;
}

/**
 * GET /team/sign-in (and a refused POST): the two ways in. The first is a one-time link from the
 * command line, which needs no form at all; the second a secret key, typed once into a password
 * field that is never filled back in (not even after a refusal) and that browsers are asked not
 * to remember, with an optional name that signs the member's replies and changes.
 */
export function signInPage(view: SignInView): SafeHtml {
  const problems = view.problems ?? [];
  const body = html`<h1>Sign in to triage</h1>
${errorSummary(problems)}
${view.notice && html`<p class="notice" role="status">${view.notice}</p>`}
<p>The quickest way in is a one-time link from the server's command line:</p>
<pre><code>feedback open --name "Your name"</code></pre>
<p class="hint">It prints a link that works once, for 10 minutes, and opens it in your browser. With a secret key instead of the database: <code>FEEDBACK_URL=https://your-server FEEDBACK_API_KEY=sk_… feedback open</code>.</p>
<h2>Or sign in with a secret key</h2>
<form method="post" action="${teamPaths.signIn}" novalidate>
${field('key', 'Secret key', problems, (describedBy) => html`<input type="password" id="key" name="key" autocomplete="off" spellcheck="false" required${describedBy}>`, 'A key that starts with sk_, from feedback keys create --secret. It is used once to sign you in and never shown again.')}
${field('name', 'Your name (optional)', problems, (describedBy) => html`<input type="text" id="name" name="name" value="${view.name ?? ''}" maxlength="${DISPLAY_NAME_MAX_LENGTH}" autocomplete="name"${describedBy}>`, 'Shown with your replies and in the status history.')}
<button type="submit" class="button">Sign in</button>
</form>`;
  return teamPage({ title: problems.length > 0 ? 'Error: Sign in' : 'Sign in', assets: view.assets, body });
}

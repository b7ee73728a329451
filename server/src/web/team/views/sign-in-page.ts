import type { AssetPaths } from '../../assets.js';
import { html, type SafeHtml } from '../../html.js';
import { errorSummary } from '../../views/parts.js';
import { teamPage, teamPaths } from '../layout.js';

export interface SignInView {
  assets: AssetPaths;
  /** Why the form is shown again: a refused key (the form's own problem), or a session that ended. */
  problem?: string | undefined;
  notice?: string | undefined;
}

/**
 * GET /team/sign-in (and a refused POST): the two ways in. The first is a one-time link from the
 * command line, which needs no form at all; the second a secret key, typed once into a password
 * field that is never filled back in (not even after a refusal) and that browsers are asked not
 * to remember.
 */
export function signInPage(view: SignInView): SafeHtml {
  const problems = view.problem ? [{ field: 'key', message: view.problem }] : [];
  const body = html`<h1>Sign in to triage</h1>
${errorSummary(problems)}
${view.notice && html`<p class="notice" role="status">${view.notice}</p>`}
<p>The quickest way in is a one-time link from the server's command line:</p>
<pre><code>feedback open</code></pre>
<p class="hint">It prints a link that works once, for 10 minutes, and opens it in your browser. With a secret key instead of the database: <code>FEEDBACK_URL=https://your-server FEEDBACK_API_KEY=sk_… feedback open</code>.</p>
<h2>Or sign in with a secret key</h2>
<form method="post" action="${teamPaths.signIn}" novalidate>
<div class="field${problems.length > 0 ? ' invalid' : ''}">
<label for="key">Secret key</label>
<p class="hint" id="key-hint">A key that starts with sk_, from <code>feedback keys create --secret</code>. It is used once to sign you in and never shown again.</p>
${problems.length > 0 && html`<p class="field-error" id="key-error"><span class="visually-hidden">Error: </span>${view.problem}</p>`}
<input type="password" id="key" name="key" autocomplete="off" spellcheck="false" required aria-describedby="key-hint${problems.length > 0 ? ' key-error' : ''}"${problems.length > 0 ? html` aria-invalid="true"` : ''}>
</div>
<button type="submit" class="button">Sign in</button>
</form>`;
  return teamPage({ title: problems.length > 0 ? 'Error: Sign in' : 'Sign in', assets: view.assets, body });
}

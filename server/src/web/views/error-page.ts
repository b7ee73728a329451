import type { AssetPaths } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { boardPaths, page } from '../layout.js';

/** What each refusal of the board says to a person (the API's texts are for programs). */
const HEADINGS: Record<number, string> = {
  400: 'Something in the request is not right',
  401: 'Not signed in',
  403: 'This form cannot be sent from there',
  404: 'Page not found',
  405: 'Not allowed',
  413: 'That was too much text',
  415: 'Something in the request is not right',
  429: 'Too many requests',
  503: 'Sorry, the service is unavailable',
};

/** The board's page for a refusal or a failure: a heading for people, the server's reason, and a way back. */
export function errorPage(status: number, reason: string, assets: AssetPaths, slug?: string): SafeHtml {
  const heading = HEADINGS[status] ?? 'Sorry, something went wrong';
  const body = html`<h1>${heading}</h1>
<p>${reason}</p>
${status === 429 && html`<p>Wait a minute, then try again.</p>`}
<p>${slug ? html`<a href="${boardPaths.board(slug)}">${status === 401 ? 'Go to the board without signing in' : 'Go to the board'}</a>` : html`<a href="/">Go to the start page</a>`}</p>`;
  return page({ title: heading, assets, body });
}

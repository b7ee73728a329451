import { html, type SafeHtml } from '../html.js';

/** What each refusal says to a person (the API's texts are for programs), on the board and the team's pages. */
const HEADINGS: Record<number, string> = {
  400: 'Something in the request is not right',
  401: 'Not signed in',
  403: 'This form cannot be sent from there',
  404: 'Page not found',
  405: 'Not allowed',
  410: 'This sign-in link no longer works',
  413: 'That was too much text',
  415: 'Something in the request is not right',
  421: 'This page is at another address',
  429: 'Too many requests',
  503: 'Sorry, the service is unavailable',
};

/**
 * A refusal's heading and body: a heading for people, the server's reason, and a way back (`back`:
 * a link). `headings` overrides some statuses' headings for a kind of page.
 */
export function refusal(status: number, reason: string, back: SafeHtml, headings: Record<number, string> = {}): { heading: string; body: SafeHtml } {
  const heading = headings[status] ?? HEADINGS[status] ?? 'Sorry, something went wrong';
  const body = html`<h1>${heading}</h1>
<p>${reason}</p>
${status === 429 && html`<p>Wait a minute, then try again.</p>`}
<p>${back}</p>`;
  return { heading, body };
}

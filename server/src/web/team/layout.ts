import type { AssetPaths } from '../assets.js';
import { html, type HtmlValue, type SafeHtml } from '../html.js';
import { boardPaths } from '../layout.js';
import type { TeamProject } from './session.js';

/** The team's paths, in one place. */
export const teamPaths = {
  inbox: '/team',
  signIn: '/team/sign-in',
  signOut: '/team/sign-out',
  bulkStatus: '/team/items/status',
  item: (id: string) => `/team/items/${encodeURIComponent(id)}`,
  itemStatus: (id: string) => `/team/items/${encodeURIComponent(id)}/status`,
  itemComment: (id: string) => `/team/items/${encodeURIComponent(id)}/comments`,
  itemMerge: (id: string) => `/team/items/${encodeURIComponent(id)}/merge`,
  itemDelete: (id: string) => `/team/items/${encodeURIComponent(id)}/delete`,
};

export interface TeamPageOptions {
  title: string;
  assets: AssetPaths;
  /** The signed-in project: the header, its navigation and the sign-out button. None on the sign-in and refusal pages. */
  project?: TeamProject | undefined;
  /** Whether this page is the inbox, for the navigation's aria-current. */
  inbox?: boolean;
  body: HtmlValue;
}

/**
 * Every team page's frame: the board's stylesheet and the team's script (same origin, hashed
 * names: the CSP allows nothing inline), a skip link, and the header, navigation, main and footer landmarks. Signed
 * in, the header names the project and holds the sign-out button (a form: signing out changes
 * something on the server, so it is a post, checked for its origin like every other).
 */
export function teamPage(options: TeamPageOptions): SafeHtml {
  const { project } = options;
  const title = project ? `${options.title} – ${project.name} – Team` : `${options.title} – Team`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${options.assets.css}">
<script src="${options.assets.js}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header"><div class="wrap">
${project ? html`<a class="brand" href="${teamPaths.inbox}">${project.name} · Team</a>` : html`<span class="brand">Feedback · Team</span>`}
${project && navigation(project, options.inbox ?? false)}
</div></header>
<main id="main" class="wrap" tabindex="-1">
${options.body}
</main>
<footer class="wrap"><p>Feedback triage${project && html`<span data-shortcuts-hint hidden> · Press <kbd>?</kbd> for keyboard shortcuts</span>`}</p></footer>
${project && shortcutsDialog()}
</body>
</html>
`;
}

function navigation(project: TeamProject, inbox: boolean): SafeHtml {
  return html`<nav class="site-nav" aria-label="Team"><ul>
<li><a href="${teamPaths.inbox}"${inbox ? html` aria-current="page"` : ''}>Inbox</a></li>
${project.boardEnabled && html`<li><a href="${boardPaths.board(project.slug)}">Public board</a></li>`}
<li><form method="post" action="${teamPaths.signOut}"><button type="submit" class="button secondary">Sign out</button></form></li>
</ul></nav>`;
}

/** The keyboard shortcuts (static/team.js), each with what it does. */
export const SHORTCUTS: readonly [key: string, does: string][] = [
  ['j', 'Next item in the inbox'],
  ['k', 'Previous item in the inbox'],
  ['x', 'Select or unselect the current item'],
  ['s', 'Change the status (of the selected items, or of this item)'],
  ['r', 'Reply as the team'],
  ['m', 'Merge into another item'],
  ['o', 'Open the current item'],
  ['?', 'Show these shortcuts'],
];

/**
 * The overlay that `?` opens (a modal dialog: Escape or its button closes it). It is in every
 * signed-in page and never shown without the script, which is what makes the keys work.
 */
function shortcutsDialog(): SafeHtml {
  return html`<dialog id="shortcuts" aria-labelledby="shortcuts-title">
<h2 id="shortcuts-title">Keyboard shortcuts</h2>
<dl class="shortcuts">${SHORTCUTS.map(([key, does]) => html`<div><dt><kbd>${key}</kbd></dt><dd>${does}</dd></div>`)}</dl>
<p class="hint">They work when no field has the focus.</p>
<button type="button" class="button" data-close-shortcuts>Close</button>
</dialog>`;
}

/** What each refusal of the team's pages says to a person. */
const HEADINGS: Record<number, string> = {
  400: 'Something in the request is not right',
  401: 'You are not signed in',
  403: 'This form cannot be sent from there',
  404: 'Page not found',
  405: 'Not allowed',
  410: 'This sign-in link no longer works',
  413: 'That was too much text',
  415: 'Something in the request is not right',
  429: 'Too many requests',
  503: 'Sorry, the service is unavailable',
};

/** The team's page for a refusal or a failure: a heading for people, the reason, and the way back in. */
export function teamErrorPage(status: number, reason: string, assets: AssetPaths, project?: TeamProject): SafeHtml {
  const heading = HEADINGS[status] ?? 'Sorry, something went wrong';
  const body = html`<h1>${heading}</h1>
<p>${reason}</p>
${status === 429 && html`<p>Wait a minute, then try again.</p>`}
<p>${project ? html`<a href="${teamPaths.inbox}">Go to the inbox</a>` : html`<a href="${teamPaths.signIn}">Sign in</a>`}</p>`;
  return teamPage({ title: heading, assets, project, body });
}

import type { TeamAssetPaths } from './team-assets.js';
import { html, isolated, isolatedPlain, type HtmlValue, type SafeHtml } from '../kit/html.js';
import { documentFrame } from '../kit/layout.js';
import { boardPaths } from '../kit/paths.js';
import { refusal } from '../kit/views/refusal.js';
import type { TeamProject } from './session.js';

/** The team's paths, in one place. */
export const teamPaths = {
  inbox: '/team',
  signIn: '/team/sign-in',
  signOut: '/team/sign-out',
  bulkStatus: '/team/items/status',
  undoStatus: '/team/items/status/undo',
  item: (id: string) => `/team/items/${encodeURIComponent(id)}`,
  itemStatus: (id: string) => `/team/items/${encodeURIComponent(id)}/status`,
  itemComment: (id: string) => `/team/items/${encodeURIComponent(id)}/comments`,
  itemMerge: (id: string) => `/team/items/${encodeURIComponent(id)}/merge`,
  itemDelete: (id: string) => `/team/items/${encodeURIComponent(id)}/delete`,
};

export interface TeamPageOptions {
  /** The page's title: text, or safe HTML whose parts people wrote are isolated already (isolatedPlain). */
  title: string | SafeHtml;
  assets: TeamAssetPaths;
  /** The signed-in project: the header, its navigation and the sign-out button. None on the sign-in and refusal pages. */
  project?: TeamProject | undefined;
  /** Whether this page is the inbox, for the navigation's aria-current. */
  inbox?: boolean;
  body: HtmlValue;
}

/**
 * A team page: the board's frame (documentFrame) with the board's stylesheet and the team's
 * script. Signed in, the header names the project and holds the sign-out button (a form: signing
 * out changes something on the server, so it is a post, checked for its origin like every other),
 * and the `?` overlay of keyboard shortcuts follows the footer.
 */
export function teamPage(options: TeamPageOptions): SafeHtml {
  const { project } = options;
  return documentFrame({
    title: project ? html`${typeof options.title === 'string' ? isolatedPlain(options.title) : options.title} – ${isolatedPlain(project.name)} – Team` : html`${options.title} – Team`,
    assets: options.assets,
    // The team's own styles (team-assets.ts), after the board's, which they build on.
    head: html`<link rel="stylesheet" href="${options.assets.teamCss}">`,
    header: html`${project ? html`<a class="brand" href="${teamPaths.inbox}">${isolated(project.name)} · Team</a>` : html`<span class="brand">Feedback · Team</span>`}
${project && navigation(project, options.inbox ?? false)}`,
    body: options.body,
    footer: html`Feedback triage${project && html`<span data-shortcuts-hint hidden> · Press <kbd>?</kbd> for keyboard shortcuts</span>`}`,
    after: project && shortcutsDialog(),
  });
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
 * The overlay that `?` opens: a modal dialog (showModal: the page behind is inert, Escape and its
 * button close it, and the script puts the focus back where it was). It is in every signed-in
 * page and never shown without the script, which is what makes the keys work. A table, so that a
 * screen reader reads each key with what it does.
 */
function shortcutsDialog(): SafeHtml {
  return html`<dialog id="shortcuts" class="shortcuts-dialog" aria-labelledby="shortcuts-title">
<div class="dialog-head">
<h2 id="shortcuts-title">Keyboard shortcuts</h2>
<button type="button" class="button secondary" data-close-shortcuts>Close</button>
</div>
<table class="shortcuts">
<caption class="hint">They work when no field has the focus.</caption>
<thead><tr><th scope="col">Key</th><th scope="col">What it does</th></tr></thead>
<tbody>${SHORTCUTS.map(([key, does]) => html`<tr><th scope="row"><kbd>${key}</kbd></th><td>${does}</td></tr>`)}</tbody>
</table>
</dialog>`;
}

/** Where the team's headings differ from the board's (kit/views/refusal.ts). */
const TEAM_HEADINGS: Record<number, string> = { 401: 'You are not signed in' };

/** The team's page for a refusal or a failure: a heading for people, the reason, and the way back in. */
export function teamErrorPage(status: number, reason: string, assets: TeamAssetPaths, project?: TeamProject): SafeHtml {
  const back = project ? html`<a href="${teamPaths.inbox}">Go to the inbox</a>` : html`<a href="${teamPaths.signIn}">Sign in</a>`;
  const { heading, body } = refusal(status, reason, back, TEAM_HEADINGS);
  return teamPage({ title: heading, assets, project, body });
}

import type { TeamAssetPaths } from './team-assets.js';
import { html, isolated, isolatedPlain, type HtmlValue, type SafeHtml } from '../kit/html.js';
import type { MessageKey } from '../../i18n/index.js';
import { ENGLISH, type I18n } from '../kit/i18n.js';
import { documentFrame } from '../kit/layout.js';
import { boardPaths } from '../../board-paths.js';
import { refusal } from '../kit/views/refusal.js';
import type { TeamProject } from './session.js';

/** The team's paths, in one place. */
export const teamPaths = {
  inbox: '/team',
  signIn: '/team/sign-in',
  signOut: '/team/sign-out',
  locale: '/team/locale',
  bulkStatus: '/team/items/status',
  undoStatus: '/team/items/status/undo',
  /** The Held view (held.ts): GET lists, POST decides. */
  held: '/team/held',
  /** Lifts one block of the Held view's list (held.ts). */
  unblock: (id: string) => `/team/held/blocks/${encodeURIComponent(id)}/unblock`,
  item: (id: string) => `/team/items/${encodeURIComponent(id)}`,
  itemStatus: (id: string) => `/team/items/${encodeURIComponent(id)}/status`,
  itemComment: (id: string) => `/team/items/${encodeURIComponent(id)}/comments`,
  itemCommentPin: (id: string, comment: string) => `/team/items/${encodeURIComponent(id)}/comments/${encodeURIComponent(comment)}/pin`,
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
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. The footer's language switcher is shown with it. */
  i18n?: I18n | undefined;
  /** The page to come back to after a change of language: the inbox (or the sign-in page) when not given. */
  here?: string | undefined;
}

/**
 * A team page: the board's frame (documentFrame) with the board's stylesheet and the team's
 * script. Signed in, the header names the project and holds the sign-out button (a form: signing
 * out changes something on the server, so it is a post, checked for its origin like every other),
 * and the `?` overlay of keyboard shortcuts follows the footer.
 */
export function teamPage(options: TeamPageOptions): SafeHtml {
  const { project } = options;
  const i18n = options.i18n ?? ENGLISH;
  const title = typeof options.title === 'string' ? isolatedPlain(options.title) : options.title;
  return documentFrame({
    // The page's own title is isolated: a member's text may be in it (an item's title).
    title: project ? i18n.t('team.pageTitle', { title, project: isolatedPlain(project.name) }) : i18n.t('team.pageTitleSignedOut', { title: options.title }),
    assets: options.assets,
    // The team's own styles (team-assets.ts), after the board's, which they build on.
    head: html`<link rel="stylesheet" href="${options.assets.teamCss}">`,
    header: html`${project ? html`<a class="brand" href="${teamPaths.inbox}">${i18n.t('team.brand', { project: isolated(project.name) })}</a>` : html`<span class="brand">${i18n.t('team.brandSignedOut')}</span>`}
${project && navigation(project, options.inbox ?? false, i18n)}`,
    body: options.body,
    footer: html`${i18n.t('team.footer')}${project && html`<span data-shortcuts-hint hidden> · ${i18n.t('team.shortcutsHint', { key: html`<kbd>?</kbd>` })}</span>`}`,
    after: project && shortcutsDialog(i18n),
    i18n: options.i18n,
    switcher: { action: teamPaths.locale, here: options.here ?? (project ? teamPaths.inbox : teamPaths.signIn) },
  });
}

function navigation(project: TeamProject, inbox: boolean, i18n: I18n): SafeHtml {
  return html`<nav class="site-nav" aria-label="${i18n.t('team.navLabel')}"><ul>
<li><a href="${teamPaths.inbox}"${inbox ? html` aria-current="page"` : ''}>${i18n.t('team.nav.inbox')}</a></li>
${project.boardEnabled && html`<li><a href="${boardPaths.board(project.slug)}">${i18n.t('team.nav.board')}</a></li>`}
<li><form method="post" action="${teamPaths.signOut}"><button type="submit" class="button secondary">${i18n.t('team.signOut')}</button></form></li>
</ul></nav>`;
}

/** The keyboard shortcuts (static/team.js), each with the message that says what it does. */
export const SHORTCUTS: readonly [key: string, does: MessageKey][] = [
  ['j', 'team.shortcuts.next'],
  ['k', 'team.shortcuts.previous'],
  ['x', 'team.shortcuts.select'],
  ['s', 'team.shortcuts.status'],
  ['r', 'team.shortcuts.reply'],
  ['m', 'team.shortcuts.merge'],
  ['o', 'team.shortcuts.open'],
  ['a', 'team.shortcuts.approve'],
  ['r', 'team.shortcuts.reject'],
  ['?', 'team.shortcuts.help'],
];

/**
 * The overlay that `?` opens: a modal dialog (showModal: the page behind is inert, Escape and its
 * button close it, and the script puts the focus back where it was). It is in every signed-in
 * page and never shown without the script, which is what makes the keys work. A table, so that a
 * screen reader reads each key with what it does.
 */
function shortcutsDialog(i18n: I18n): SafeHtml {
  return html`<dialog id="shortcuts" class="shortcuts-dialog" aria-labelledby="shortcuts-title">
<div class="dialog-head">
<h2 id="shortcuts-title">${i18n.t('team.shortcuts.title')}</h2>
<button type="button" class="button secondary" data-close-shortcuts>${i18n.t('team.shortcuts.close')}</button>
</div>
<table class="shortcuts">
<caption class="hint">${i18n.t('team.shortcuts.when')}</caption>
<thead><tr><th scope="col">${i18n.t('team.shortcuts.key')}</th><th scope="col">${i18n.t('team.shortcuts.does')}</th></tr></thead>
<tbody>${SHORTCUTS.map(([key, does]) => html`<tr><th scope="row"><kbd>${key}</kbd></th><td>${i18n.t(does)}</td></tr>`)}</tbody>
</table>
</dialog>`;
}

/** Where the team's headings differ from the board's (kit/views/refusal.ts). */
const TEAM_HEADINGS: Readonly<Record<number, MessageKey>> = { 401: 'team.error.notSignedIn' };

/** The team's page for a refusal or a failure: a heading for people, the reason, and the way back in. */
export function teamErrorPage(status: number, reason: string, assets: TeamAssetPaths, project?: TeamProject, i18n: I18n = ENGLISH): SafeHtml {
  const back = project ? html`<a href="${teamPaths.inbox}">${i18n.t('team.error.inbox')}</a>` : html`<a href="${teamPaths.signIn}">${i18n.t('team.error.signIn')}</a>`;
  const { heading, body } = refusal(status, reason, back, i18n, TEAM_HEADINGS);
  return teamPage({ title: heading, assets, project, body, i18n });
}

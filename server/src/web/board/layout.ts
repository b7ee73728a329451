import type { AssetPaths } from '../kit/assets.js';
import { html, isolated, isolatedPlain, type HtmlValue, type SafeHtml } from '../kit/html.js';
import { documentFrame } from '../kit/layout.js';
import { boardPaths } from '../kit/paths.js';
import type { BoardProject } from './projects.js';
import type { Visitor } from './visitors.js';

export type { BoardProject } from './projects.js';

/** Which page of the board's navigation a page is. */
export type Section = 'board' | 'roadmap' | 'new';

export interface PageOptions {
  title: string;
  assets: AssetPaths;
  /** The project, for the header and its navigation; none on a page about no project (an unknown board). */
  project?: BoardProject;
  /** The identified visitor, named in the header with a way to sign out; none for an anonymous one. */
  visitor?: Visitor | undefined;
  section?: Section;
  body: HtmlValue;
}

export { boardPaths } from '../kit/paths.js';

/** A page of the board: its frame (documentFrame) with the project's name, navigation and signed-in visitor. */
export function page(options: PageOptions): SafeHtml {
  const { project, section } = options;
  return documentFrame({
    title: project ? html`${isolatedPlain(options.title)} &ndash; ${isolatedPlain(project.name)}` : options.title,
    assets: options.assets,
    header: html`${project ? html`<a class="brand" href="${boardPaths.board(project.slug)}">${isolated(project.name)}</a>` : html`<span class="brand">Feedback</span>`}
${project && navigation(project.slug, section)}
${project && options.visitor && signedIn(project.slug, options.visitor)}`,
    body: options.body,
    footer: 'Feedback board',
  });
}

function navigation(slug: string, section: Section | undefined): SafeHtml {
  const link = (to: Section, href: string, label: string) =>
    html`<li><a href="${href}"${section === to ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="site-nav" aria-label="Board"><ul>
${link('board', boardPaths.board(slug), 'Feedback')}
${link('roadmap', boardPaths.roadmap(slug), 'Roadmap')}
${link('new', boardPaths.submit(slug), 'Give feedback')}
</ul></nav>`;
}

/** Who the host app says the visitor is, and a form to sign out of the board (a post: a link could be followed by any page). */
function signedIn(slug: string, visitor: Visitor): SafeHtml {
  return html`<form class="signed-in" method="post" action="${boardPaths.signOut(slug)}">
<span>Signed in as <strong>${isolated(visitor.name ?? visitor.externalId)}</strong></span>
<button type="submit" class="link-button">Sign out</button>
</form>`;
}

import type { AssetPaths } from './assets.js';
import type { BoardProject } from './board-projects.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';
import { boardPaths } from './paths.js';
import type { Visitor } from './visitors.js';

export type { BoardProject } from './board-projects.js';

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

export { boardPaths } from './paths.js';

/**
 * Every page's frame: language, title, the stylesheet and the deferred script (both ours, same
 * origin: the CSP allows nothing inline), a skip link to the main content, and the header,
 * navigation, main and footer landmarks.
 */
export function page(options: PageOptions): SafeHtml {
  const { project, section } = options;
  const title = project ? html`${options.title} &ndash; ${project.name}` : options.title;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${options.assets.css}">
<script src="${options.assets.js}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header"><div class="wrap">
${project ? html`<a class="brand" href="${boardPaths.board(project.slug)}">${project.name}</a>` : html`<span class="brand">Feedback</span>`}
${project && navigation(project.slug, section)}
${project && options.visitor && signedIn(project.slug, options.visitor)}
</div></header>
<main id="main" class="wrap" tabindex="-1">
${options.body}
</main>
<footer class="wrap"><p>Feedback board</p></footer>
</body>
</html>
`;
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
<span>Signed in as <strong>${visitor.name ?? visitor.externalId}</strong></span>
<button type="submit" class="link-button">Sign out</button>
</form>`;
}

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
  /** The page's own path (no query): the link previews' og:url. */
  path?: string;
  body: HtmlValue;
}

export { boardPaths } from '../kit/paths.js';

/** A page of the board: its frame (documentFrame) with the project's brand, navigation and signed-in visitor. */
export function page(options: PageOptions): SafeHtml {
  const { project, section } = options;
  return documentFrame({
    title: project ? html`${isolatedPlain(options.title)} &ndash; ${isolatedPlain(project.name)}` : options.title,
    assets: options.assets,
    head: project && brandHead(project, options),
    header: html`${project ? brand(project) : html`<span class="brand">Feedback</span>`}
${project && navigation(project.slug, section)}
${project && options.visitor && signedIn(project.slug, options.visitor)}`,
    body: options.body,
    footer: 'Feedback board',
  });
}

/** What the board's description says when its operator gave none: the meta description every page has. */
function descriptionOf(project: BoardProject): string {
  return project.description || `Share feedback on ${project.name}, vote on ideas and follow the roadmap.`;
}

/**
 * The head's brand (`feedback board brand`): the meta description, the link previews' Open Graph
 * tags (absolute URLs, on the origin the page is served at), and the accent's stylesheet, inline
 * and allowed by its hash alone (kit/guards.ts, projectPolicy). The stylesheet holds none of the
 * characters the template escapes (admin/brand/accent.ts writes it from #rrggbb colours), so the
 * page carries the exact bytes that were hashed.
 */
function brandHead(project: BoardProject, options: PageOptions): SafeHtml {
  const absolute = (path: string) => (project.origin ? project.origin + path : path);
  // Isolated as the <title> is: a preview shows the title beside the name, which a U+202E in the title would reverse.
  const description = isolatedPlain(descriptionOf(project));
  const name = isolatedPlain(project.name);
  return html`<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${name}">
<meta property="og:title" content="${isolatedPlain(options.title)} &ndash; ${name}">
<meta property="og:description" content="${description}">
${options.path && project.origin ? html`<meta property="og:url" content="${absolute(options.path)}">\n` : ''}${project.logo ? html`<meta property="og:image" content="${absolute(project.logo.path)}">\n` : ''}${project.accent ? html`<style>${project.accent.style}</style>\n` : ''}`;
}

/** The header's brand: the logo (its width kept from its size, so nothing moves when it loads), the name, the description. */
function brand(project: BoardProject): SafeHtml {
  const logo = project.logo;
  const height = 32;
  const width = logo && logo.height > 0 ? Math.max(1, Math.round((height * logo.width) / logo.height)) : height;
  return html`<div class="brand-block"><a class="brand" href="${boardPaths.board(project.slug)}">${logo ? html`<img src="${logo.path}" alt="" width="${width}" height="${height}">` : ''}${isolated(project.name)}</a>${project.description ? html`<p class="tagline">${isolated(project.description)}</p>` : ''}</div>`;
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

import type { AssetPaths } from '../kit/assets.js';
import { html, isolated, isolatedPlain, type HtmlValue, type SafeHtml } from '../kit/html.js';
import { ENGLISH, type I18n } from '../kit/i18n.js';
import { documentFrame } from '../kit/layout.js';
import { boardPaths } from '../../board-paths.js';
import type { BoardProject } from './projects.js';
import type { Visitor } from './visitors.js';

export type { BoardProject } from './projects.js';

/** Which page of the board's navigation a page is. */
export type Section = 'board' | 'roadmap' | 'changelog' | 'new';

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
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. The footer's language switcher is shown with it. */
  i18n?: I18n | undefined;
  /** The board of a page about no project (an error page): where its language switcher posts. */
  boardSlug?: string | undefined;
  /** The page to come back to after a change of language: the page's path when not given. */
  here?: string | undefined;
}

export { boardPaths } from '../../board-paths.js';

/** A page of the board: its frame (documentFrame) with the project's brand, navigation and signed-in visitor. */
export function page(options: PageOptions): SafeHtml {
  const { project, section } = options;
  const i18n = options.i18n ?? ENGLISH;
  const slug = project?.slug ?? options.boardSlug;
  return documentFrame({
    title: project ? i18n.t('board.pageTitle', { title: isolatedPlain(options.title), project: isolatedPlain(project.name) }) : options.title,
    assets: options.assets,
    head: project && brandHead(project, options, i18n),
    header: html`${project ? brand(project) : html`<span class="brand">${i18n.t('board.brand')}</span>`}
${project && navigation(project.slug, section, i18n)}
${project && options.visitor && signedIn(project.slug, options.visitor, i18n)}`,
    body: options.body,
    footer: i18n.t('board.footer'),
    i18n: options.i18n,
    switcher: slug === undefined ? undefined : { action: boardPaths.locale(slug), here: options.here ?? options.path ?? boardPaths.board(slug) },
  });
}

/**
 * The board's description, or what it says when its operator gave none: the meta description every
 * page has. Isolated whole, as the title is beside it in a preview, and the name inside the
 * sentence too, so that a bidi control in the name cannot reorder the words after it.
 */
function descriptionOf(project: BoardProject, i18n: I18n): SafeHtml {
  return project.description ? isolatedPlain(project.description) : html`&#x2068;${i18n.t('board.defaultDescription', { project: isolatedPlain(project.name) })}&#x2069;`;
}

/**
 * The head's brand (`feedback board brand`): the meta description, the link previews' Open Graph
 * tags (absolute URLs, on the origin the page is served at), and the accent's stylesheet, inline
 * and allowed by its hash alone (kit/guards.ts, projectPolicy). The stylesheet holds none of the
 * characters the template escapes (domain/projects/brand/accent.ts writes it from #rrggbb colours), so the
 * page carries the exact bytes that were hashed.
 */
function brandHead(project: BoardProject, options: PageOptions, i18n: I18n): SafeHtml {
  const absolute = (path: string) => (project.origin ? project.origin + path : path);
  // Isolated as the <title> is: a preview shows the title beside the name, which a U+202E in the title would reverse.
  const description = descriptionOf(project, i18n);
  const name = isolatedPlain(project.name);
  return html`<link rel="alternate" type="application/atom+xml" title="${i18n.t('changelog.feedTitle', { project: name })}" href="${boardPaths.changelogFeed(project.slug)}">
<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${name}">
<meta property="og:title" content="${i18n.t('board.pageTitle', { title: isolatedPlain(options.title), project: name })}">
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

function navigation(slug: string, section: Section | undefined, i18n: I18n): SafeHtml {
  const link = (to: Section, href: string, label: SafeHtml) =>
    html`<li><a href="${href}"${section === to ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="site-nav" aria-label="${i18n.t('board.navLabel')}"><ul>
${link('board', boardPaths.board(slug), i18n.t('board.nav.feedback'))}
${link('roadmap', boardPaths.roadmap(slug), i18n.t('board.nav.roadmap'))}
${link('changelog', boardPaths.changelog(slug), i18n.t('board.nav.changelog'))}
${link('new', boardPaths.submit(slug), i18n.t('board.nav.submit'))}
</ul></nav>`;
}

/** Who the host app says the visitor is, and a form to sign out of the board (a post: a link could be followed by any page). */
function signedIn(slug: string, visitor: Visitor, i18n: I18n): SafeHtml {
  return html`<form class="signed-in" method="post" action="${boardPaths.signOut(slug)}">
<span>${i18n.t('board.signedInAs', { name: html`<strong>${isolated(visitor.name ?? visitor.externalId)}</strong>` })}</span>
<button type="submit" class="link-button">${i18n.t('board.signOut')}</button>
</form>`;
}

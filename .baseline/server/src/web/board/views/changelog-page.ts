import type { ChangelogEntry } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { markdownHtml } from '../../kit/markdown.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { date, pagination } from '../../kit/views/list-parts.js';
import { label } from '../../kit/views/parts.js';

export interface ChangelogView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  /** A page of the published entries, newest first. */
  entries: readonly ChangelogEntry[];
  page: number;
  totalPages: number;
  pageLink: (page: number) => string;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
}

/**
 * GET /b/:slug/changelog: the published entries, newest first, a page at a time; each its title,
 * its date, its body (Markdown rendered with raw HTML off: kit/markdown.ts) and links to the items
 * it shipped. The Atom feed of the same entries is linked from the head and the page. The body
 * is what people wrote, in their language: dir="auto" sets its direction by its own first words.
 */
export function changelogPage(view: ChangelogView): SafeHtml {
  const { project } = view;
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  const here = boardPaths.changelog(project.slug);
  const body = html`<h1>${t('changelog.heading')}</h1>
<p class="feed-link"><a href="${boardPaths.changelogFeed(project.slug)}" type="application/atom+xml">${t('changelog.feed')}</a></p>
${view.entries.length === 0
    ? html`<p class="empty">${t('changelog.empty')}</p>`
    : html`<ol class="changelog">${view.entries.map((entry) => entryBlock(project.slug, entry, i18n))}</ol>`}
${pagination(view, view.pageLink, i18n)}`;
  return page({ title: i18n.text('changelog.heading'), assets: view.assets, project, visitor: view.visitor, section: 'changelog', path: here, body, i18n });
}

/** One entry: an article whose id the item pages' "Shipped in" links point at. */
function entryBlock(slug: string, entry: ChangelogEntry, i18n: I18n): SafeHtml {
  const heading = `entry-${entry.id}-title`;
  return html`<li><article class="changelog-entry" id="entry-${entry.id}" aria-labelledby="${heading}">
<h2 id="${heading}">${isolated(entry.title)}</h2>
<p class="hint">${date(entry.publishedAt!, i18n)}</p>
<div class="entry-body" dir="auto">${markdownHtml(entry.body)}</div>
${entry.items.length > 0 &&
  html`<section class="entry-items" aria-label="${i18n.t('changelog.items')}"><h3>${i18n.t('changelog.items')}</h3><ul>${entry.items.map(
    (item) => html`<li><a href="${boardPaths.item(slug, item.id)}">${isolated(item.title)}</a> <span class="status">${label(item.status, i18n)}</span></li>`,
  )}</ul></section>`}
</article></li>`;
}

/** The item page's line: the entries that shipped it, each a link to its place on the changelog. */
export function shippedIn(slug: string, entries: readonly { id: string; title: string }[], i18n: I18n): SafeHtml | false {
  if (entries.length === 0) return false;
  const links = entries.map((entry, i) => html`${i > 0 ? ', ' : ''}<a href="${boardPaths.changelogEntry(slug, entry.id)}">${isolated(entry.title)}</a>`);
  return html`<p class="shipped-in">${i18n.t('changelog.shippedIn', { entries: html`${links}` })}</p>`;
}

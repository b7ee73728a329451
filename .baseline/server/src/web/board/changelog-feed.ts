import { Feed } from 'feed';
import type { ChangelogEntry } from '@feedbackd/sdk/contract';
import type { I18n } from '../kit/i18n.js';
import { markdownHtml } from '../kit/markdown.js';
import { html } from '../kit/html.js';
import { boardPaths, type BoardProject } from './layout.js';

/** Entries in the feed: the newest ones; older ones are on the changelog's pages. */
export const FEED_SIZE = 20;

/**
 * The board's changelog as Atom (RFC 4287), written by the `feed` library (its escaping, its
 * required elements). Ids are `urn:uuid:` of the entries, which stay the same if the board moves
 * to another address; links are absolute, on the origin the feed was asked at (or --public-url).
 * The content is the body rendered as on the page (raw HTML off), which the library escapes.
 */
export function changelogFeed(project: BoardProject & { origin: string }, entries: readonly ChangelogEntry[], i18n: I18n): string {
  const absolute = (path: string) => project.origin + path;
  const updated = entries.reduce((latest, entry) => Math.max(latest, Date.parse(entry.updatedAt), Date.parse(entry.publishedAt!)), 0);
  const feed = new Feed({
    id: absolute(boardPaths.changelogFeed(project.slug)),
    title: i18n.text('changelog.feedTitle', { project: project.name }),
    description: project.description ?? undefined,
    link: absolute(boardPaths.changelog(project.slug)),
    language: i18n.lang,
    // An empty feed is as old as nothing: the epoch, so that it never claims a change that did not happen.
    updated: new Date(updated),
    generator: 'feedback',
    copyright: project.name,
    feedLinks: { atom: absolute(boardPaths.changelogFeed(project.slug)) },
  });
  for (const entry of entries) {
    feed.addItem({
      id: `urn:uuid:${entry.id}`,
      // The library marks an entry's title type="html": escaped, a title like "<b>new</b>" reads as the text it is.
      title: html`${entry.title}`.text,
      link: absolute(boardPaths.changelogEntry(project.slug, entry.id)),
      date: new Date(Math.max(Date.parse(entry.updatedAt), Date.parse(entry.publishedAt!))),
      published: new Date(entry.publishedAt!),
      content: markdownHtml(entry.body).text,
    });
  }
  return feed.atom1();
}

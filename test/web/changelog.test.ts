import { expect } from 'chai';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import type { ChangelogEntry } from '@feedbackd/sdk/contract';
import { type BoardProject, changelogFeed, i18nFor, markdownHtml } from '@feedbackd/server/testing';

const project: BoardProject & { origin: string } = { id: 'p1', slug: 'acme', name: 'Acme & <Co>', voterSalt: 'salt', identitySecret: null, frameOrigins: [], origin: 'https://feedback.example.com' };

function entry(overrides: Partial<ChangelogEntry> = {}): ChangelogEntry {
  return { id: '0192f4a6-0000-7000-8000-000000000001', title: 'Dark <mode> & more', body: 'It is **here**.', state: 'published', publishedAt: '2026-11-24T10:00:00.000Z', items: [], createdAt: '2026-11-24T09:00:00.000Z', updatedAt: '2026-11-24T09:30:00.000Z', ...overrides };
}

/** A changelog entry's Markdown, as the board and the feed show it (kit/markdown.ts). */
describe('changelog Markdown', () => {
  it('when a body holds raw HTML, then it is shown as text and no element of it is made', () => {
    const out = markdownHtml('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)"> <b>bold</b>').text;
    expect(out).to.not.match(/<script|<img|<b>/);
    expect(out).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).to.include('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('when a link is javascript:, data: or vbscript:, then it stays text; http(s) and mailto links get rel="nofollow noopener"', () => {
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'vbscript:msgbox(1)', ' javascript:alert(1)']) {
      expect(markdownHtml(`[click](${bad})`).text, bad).to.not.include('<a ');
    }
    expect(markdownHtml('<javascript:alert(1)>').text).to.not.include('<a ');
    expect(markdownHtml('[docs](https://example.com/a?b=1&c=2)').text).to.equal('<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">docs</a></p>\n');
    expect(markdownHtml('[mail](mailto:team@example.com) and https://example.org').text).to.include('<a href="mailto:team@example.com" rel="nofollow noopener">').and.include('<a href="https://example.org" rel="nofollow noopener">');
  });

  it('when a body holds an image, then no <img> is made: it becomes a link to the image; and headings move under the entry\'s own', () => {
    const out = markdownHtml('![a cat](https://example.com/cat.png)\n\n# Big\n\n###### Small').text;
    expect(out).to.not.include('<img');
    expect(out).to.include('<a href="https://example.com/cat.png" rel="nofollow noopener">a cat</a>');
    expect(out).to.include('<h3>Big</h3>').and.include('<h6>Small</h6>');
  });
});

/**
 * What an XML 1.0 document may hold at all (section 2.2, `Char`), which neither XMLValidator nor the
 * feed parser checks: a strict reader (a browser's, libxml2) refuses the document for one other.
 */
const XML_CHARS_ONLY = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

/** The board's Atom feed (board/changelog-feed.ts), read by an independent parser. */
describe('changelog Atom feed', () => {
  it('when entries are written as Atom, then the XML is well-formed and a feed parser reads their ids, times, links, titles and escaped content', () => {
    const first = entry();
    const second = entry({ id: '0192f4a6-0000-7000-8000-000000000002', title: 'Second', body: '<script>x</script> [a](javascript:x)', publishedAt: '2026-11-25T10:00:00.000Z', updatedAt: '2026-11-26T08:00:00.000Z' });
    const xml = changelogFeed(project, [second, first], i18nFor('en'));
    expect(XMLValidator.validate(xml)).to.equal(true);
    const feed = parseFeed(xml);
    expect(feed.meta.type).to.equal('atom');
    expect(feed.title).to.equal('Acme & <Co>: changelog');
    expect(feed.url).to.equal('https://feedback.example.com/b/acme/changelog');
    expect(feed.updated?.toISOString()).to.equal('2026-11-26T08:00:00.000Z');
    expect(feed.items.map((item) => item.id)).to.deep.equal([`urn:uuid:${second.id}`, `urn:uuid:${first.id}`]);
    const [two, one] = feed.items;
    expect(one!.title).to.equal('Dark <mode> & more');
    expect(one!.url).to.equal(`https://feedback.example.com/b/acme/changelog#entry-${first.id}`);
    expect(one!.published?.toISOString()).to.equal('2026-11-24T10:00:00.000Z');
    expect(one!.updated?.toISOString()).to.equal('2026-11-24T10:00:00.000Z');
    expect(one!.content).to.include('<strong>here</strong>');
    expect(two!.updated?.toISOString()).to.equal('2026-11-26T08:00:00.000Z');
    // The content is the rendered body: the writer's <script> is text in it, and the javascript: link no link.
    expect(xml).to.include('<content type="html"><![CDATA[<p>&lt;script&gt;x&lt;/script&gt; [a](javascript:x)</p>');
    expect(two!.content).to.not.include('href="javascript');
  });

  it("when an entry's title and body and the project's names hold characters XML 1.0 forbids (issue 49: one U+0001 or U+FFFE made the feed invalid for every reader), then they are stripped and the feed is well-formed", () => {
    const forbidden = '\u0001\u0008\u000b\u000c\u001f\ufffe\uffff\ud800';
    const xml = changelogFeed(
      { ...project, name: `Acme${forbidden}`, description: `All${forbidden} news` },
      [entry({ title: `Dark${forbidden} mode`, body: `It is${forbidden} **here**, tab\there. 😀` })],
      i18nFor('en'),
    );
    expect(XML_CHARS_ONLY.test(xml), 'only characters XML 1.0 allows').to.equal(true);
    expect(XMLValidator.validate(xml)).to.equal(true);
    const feed = parseFeed(xml);
    expect(feed.title).to.equal('Acme: changelog');
    expect(feed.description).to.equal('All news');
    expect(feed.items[0]!.title).to.equal('Dark mode');
    // What XML allows stays as written: a tab, and a character outside the BMP (a surrogate pair).
    expect(feed.items[0]!.content).to.include('It is <strong>here</strong>, tab\there. 😀');
  });

  it('when there are no entries, then the feed is still valid Atom with no items', () => {
    const xml = changelogFeed(project, [], i18nFor('fr'));
    expect(XMLValidator.validate(xml)).to.equal(true);
    const feed = parseFeed(xml);
    expect(feed.items).to.deep.equal([]);
    expect(feed.title).to.equal('Acme & <Co> : nouveautés');
  });
});

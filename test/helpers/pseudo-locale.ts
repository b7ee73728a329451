import { expect } from 'chai';
import { type Catalogue, I18n, LOCALE_INFO, type MessageKey, Messages, type SafeHtml, SOURCE_CATALOGUE } from '@feedbackd/server/testing';

/*
 * The check that a page holds no English outside the message catalogue (issue 38): the page is
 * rendered in a pseudo-locale, English with every message wrapped in ⟦ ⟧ (its ICU arguments kept,
 * so plurals and dates still work), and every text meant for people is read: text nodes, and the
 * attributes people read or hear (title, aria-label, alt, placeholder, a button's value, the meta
 * descriptions). Once the markers, the fixture's own data (what people wrote) and the languages'
 * own names (the switcher) are taken out, no letter may be left: a letter left is a string written
 * in a view rather than in the catalogue.
 */

const OPEN = '⟦';
const CLOSE = '⟧';

/** English, each message wrapped in markers. */
export const PSEUDO_CATALOGUE: Catalogue = Object.fromEntries(Object.entries(SOURCE_CATALOGUE).map(([key, message]) => [key, `${OPEN}${message}${CLOSE}`])) as Record<MessageKey, string>;

/** The pseudo-locale's messages (English's plural rules and dates; written in UTF-8, so the markers stay characters). */
export const PSEUDO = new I18n(new Messages('en', PSEUDO_CATALOGUE), false);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0', ndash: '–', mdash: '—', ldquo: '“', rdquo: '”', lsquo: '‘', rsquo: '’', middot: '·', hellip: '…', larr: '←', rarr: '→' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return NAMED[name] ?? entity;
  });
}

/** The texts of a page meant for people: text nodes (code, kbd, style and script left out) and the attributes people read or hear. */
export function textsForPeople(page: SafeHtml): string[] {
  const texts: string[] = [];
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  for (const [tag] of page.text.matchAll(/<[a-z][^>]*>/gi)) {
    for (const name of ['title', 'aria-label', 'alt', 'placeholder']) {
      const value = attribute(tag, name);
      if (value !== undefined) texts.push(decode(value));
    }
    const isButtonValue = /^<button\b/i.test(tag) || /^<input\b[^>]*\stype="(?:submit|button|reset)"/i.test(tag);
    if (isButtonValue && attribute(tag, 'value') !== undefined) texts.push(decode(attribute(tag, 'value')!));
    if (/^<meta\b[^>]*\s(?:name="description"|property="og:(?:title|description|site_name)")/i.test(tag)) texts.push(decode(attribute(tag, 'content') ?? ''));
  }
  const body = page.text
    .replace(/<!doctype[^>]*>/i, '')
    .replace(/<(style|script|code|kbd)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    // Inline elements stay within their text (a message may hold a link or a name); other tags end it.
    .replace(/<\/?(?:a|abbr|b|bdi|em|i|mark|small|span|strong|time)\b[^>]*>/gi, '')
    .replace(/<[^>]*>/g, '\n');
  texts.push(...decode(body).split('\n'));
  return texts.map((text) => text.trim()).filter((text) => text !== '');
}

/**
 * Fails when the page (rendered with PSEUDO) has letters outside the catalogue's markers, the
 * fixture's `data` (text people wrote, given to the view) and the languages' own names.
 */
export function expectAllInCatalogue(page: SafeHtml, data: readonly string[] = []): void {
  const allowed = [...data, ...Object.values(LOCALE_INFO).map((info) => info.name)].filter((text) => text !== '').sort((a, b) => b.length - a.length);
  const strays: string[] = [];
  for (const text of textsForPeople(page)) {
    let rest = text.replace(/[\u2066-\u2069]/g, '');
    for (const datum of allowed) rest = rest.split(datum).join(' ');
    // Innermost markers first: a message may hold another (a title in the page's title).
    for (let before = ''; before !== rest; ) {
      before = rest;
      rest = rest.replace(new RegExp(`${OPEN}[^${OPEN}${CLOSE}]*${CLOSE}`, 'g'), ' ');
    }
    if (/\p{L}/u.test(rest)) strays.push(`${rest.trim()}   (in: ${text})`);
  }
  expect(strays, 'text outside the message catalogue').to.deep.equal([]);
}

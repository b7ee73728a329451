import { html, isolated, type SafeHtml } from '../html.js';
import { ENGLISH, type I18n } from '../i18n.js';

/*
 * People on an item's page, the same on the board and on the team's pages: who posted it, drawn
 * as a circle of their initials. No image is fetched (an avatar URL is the host app's, and the
 * CSP loads nothing from elsewhere); the circle is decoration, the name beside it is the text.
 */

/** Colours of the circles (board.css, .avatar-0 to .avatar-7), each dark enough for white initials (4.5:1). */
const AVATAR_COLOURS = 8;

/**
 * A name's initials: the first letter (or digit) of its first word and of its last, upper-cased;
 * one for a name of one word. Words without a letter or digit ("&", "-") are skipped. Matched by
 * code point, so a letter of another script is never cut in half. A name without letters has none.
 */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length === 0) return '';
  const first = (word: string) => /[\p{L}\p{N}]/u.exec(word)![0];
  const last = words.length > 1 ? first(words[words.length - 1]!) : '';
  return (first(words[0]!) + last).toLocaleUpperCase();
}

/** The same name always gets the same colour, on every page and every server: a sum of its code points. */
export function avatarColour(name: string): number {
  let sum = 0;
  for (const char of name) sum = (sum + char.codePointAt(0)!) % 1_000_003;
  return sum % AVATAR_COLOURS;
}

/** The circle of a person's initials, hidden from assistive technology (the name is beside it); a neutral one for nobody. */
export function avatar(name: string | null | undefined): SafeHtml {
  const text = name ? initials(name) : '';
  if (!text) return html`<span class="avatar avatar-none" aria-hidden="true">?</span>`;
  return html`<span class="avatar avatar-${avatarColour(name!)}" aria-hidden="true">${text}</span>`;
}

/** A person's avatar and name (or the catalogue's "Anonymous"), as a line of an item's page. */
export function person(name: string | null | undefined, i18n: I18n = ENGLISH): SafeHtml {
  return html`<span class="person">${avatar(name)}<span class="person-name">${name ? isolated(name) : i18n.t('person.anonymous')}</span></span>`;
}

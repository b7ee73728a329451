/**
 * The board's template layer. Pages are built with the `html` tag only: every value interpolated
 * into it is escaped, unless it is itself the result of `html` (already safe HTML). So a page
 * never escapes by hand, and text a visitor submitted cannot become markup by a forgotten call.
 */

import { escapeHtml } from '../../html-escape.js';

const brand = Symbol('SafeHtml');

/** Markup that is safe to send as it is: made by `html` from escaped values and literal text. */
export interface SafeHtml {
  readonly [brand]: true;
  readonly text: string;
}

/** What may be interpolated: text and numbers (escaped), safe HTML, lists of them, and nothing (`null`, `undefined`, `false`). */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

function safe(text: string): SafeHtml {
  return { [brand]: true, text };
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && brand in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (isSafe(value)) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** The tagged template: literal parts as written, every interpolation escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += render(values[i]!) + strings[i + 1]!;
  return safe(text);
}

/**
 * Text that people wrote (a title, a name, a description, a search), isolated from the text around
 * it in `<bdi>`: its direction is its own (right-to-left in Arabic or Hebrew), and a bidi control
 * it holds (U+202E, a right-to-left override left open) ends with it, so it cannot reverse what
 * follows, such as the date beside a name.
 */
export function isolated(text: string): SafeHtml {
  return html`<bdi>${text}</bdi>`;
}

/**
 * The same isolation where no element may go (a <title>): the text between U+2068 (first strong
 * isolate) and U+2069 (pop directional isolate), written as entities so the page stays ASCII.
 */
export function isolatedPlain(text: string): SafeHtml {
  return html`&#x2068;${text}&#x2069;`;
}

/**
 * Markup a renderer that escapes by itself produced: the one other source of SafeHtml than `html`.
 * Only kit/markdown.ts calls it, with markdown-it's output under raw HTML off (its every text
 * escaped, its links' addresses checked), so what a writer typed never becomes markup of its own.
 */
export function rendererMarkup(text: string): SafeHtml {
  return safe(text);
}

/** The characters the views wrote as named entities before the catalogue: kept so, as they read better in the source. */
const NAMED: Record<string, string> = { '\u2013': '&ndash;', '\u2014': '&mdash;', '\u201c': '&ldquo;', '\u201d': '&rdquo;', '\u2018': '&lsquo;', '\u2019': '&rsquo;', '\u00b7': '&middot;', '\u2026': '&hellip;', '\u00a0': '&nbsp;', '\u2190': '&larr;', '\u2192': '&rarr;' };
const NON_ASCII = /[^\u0000-\u007f]/u;
const TO_REFERENCE = /[^\u0000-\u007f]/gu;

/**
 * Text escaped as `html` escapes it, with every character outside ASCII written as a character
 * reference: an English page stays all ASCII, which is turned into bytes several times faster
 * (see voteForm in views/parts.ts), even where its messages use typographic characters.
 */
export function asciiText(text: string): SafeHtml {
  const escaped = escapeHtml(text);
  return safe(NON_ASCII.test(escaped) ? escaped.replace(TO_REFERENCE, (char) => NAMED[char] ?? `&#x${char.codePointAt(0)!.toString(16)};`) : escaped);
}

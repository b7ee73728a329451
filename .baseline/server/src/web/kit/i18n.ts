import { LOCALE_INFO, Messages, messagesFor, SOURCE_LOCALE, type Locale, type MessageKey } from '../../i18n/index.js';
import { asciiText, html, type SafeHtml } from './html.js';

/** What a message's argument may be on a page: text (escaped), a number, a date, or markup made by `html` (kept as it is). */
export type PageValue = string | number | Date | SafeHtml;

/**
 * A locale's messages for the board and the team's pages (server/src/i18n/): what a view gets in
 * its options as `i18n`. `t` gives a message as safe HTML: the message's own text escaped, its
 * SafeHtml arguments (a link, isolated text people wrote) kept whole. English is written all in
 * ASCII (asciiText); other languages as UTF-8, as the page's charset says.
 */
export class I18n {
  readonly locale: Locale;
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  private readonly escape: (text: string) => SafeHtml;

  constructor(readonly messages: Messages, ascii: boolean) {
    this.locale = messages.locale as Locale;
    this.lang = messages.lang;
    this.dir = messages.dir;
    this.escape = ascii ? asciiText : (text) => html`${text}`;
  }

  /** A message as safe HTML (also right in a quoted attribute, as long as no argument is an element). */
  t = (key: MessageKey, values?: Readonly<Record<string, PageValue>>): SafeHtml => {
    if (!values || !Object.values(values).some(isMarkup)) return this.escape(this.messages.t(key, values as Record<string, string | number | Date> | undefined));
    const template = this.template(key, values);
    if (template) return html`${template.map((piece) => (typeof piece === 'string' ? (values[piece] as SafeHtml) : piece))}`;
    return html`${this.messages.parts<SafeHtml>(key, values).map((part) => (typeof part === 'string' ? this.escape(part) : part))}`;
  };

  private readonly templates = new Map<string, (SafeHtml | string)[]>();

  /**
   * A message whose markup arguments are the only text ones (a list's "vote for “{title}”" on
   * every row), as its escaped pieces and the names of the markup between them: formatted once
   * with a marker in each markup's place, kept by key, numbers and days, and filled in after.
   * Formatting to parts on every row cost more than the rest of the row. Undefined when a value
   * is text (not worth keeping).
   */
  private template(key: MessageKey, values: Readonly<Record<string, PageValue>>): (SafeHtml | string)[] | undefined {
    let kept: string = key;
    const marked: Record<string, string | number | Date> = {};
    for (const name in values) {
      const value = values[name]!;
      if (typeof value === 'string') return undefined;
      if (typeof value === 'number') kept += `|${name}=${value}`;
      else if (value instanceof Date) kept += `|${name}@${Math.floor(value.getTime() / 86_400_000)}`;
      else kept += `|${name}`;
      marked[name] = isMarkup(value) ? `${MARK}${name}${MARK}` : value;
    }
    let template = this.templates.get(kept);
    if (!template) {
      const pieces = this.messages.t(key, marked).split(MARK);
      // Odd pieces are the markers' names; even ones the message's text around them.
      template = pieces.map((piece, i) => (i % 2 === 1 ? piece : this.escape(piece)));
      if (this.templates.size >= 10_000) this.templates.clear();
      this.templates.set(kept, template);
    }
    return template;
  }

  /** A message as plain text, for what the layouts take as text (a page's title). */
  text = (key: MessageKey, values?: Readonly<Record<string, string | number | Date>>): string => this.messages.t(key, values);

  /** A date as the locale writes a medium date. */
  date = (value: Date | string): SafeHtml => this.escape(this.messages.date(value));

  /** A number as the locale groups its digits. */
  number = (value: number): SafeHtml => this.escape(this.messages.number(value));
}

/** What stands for a markup argument while its message is formatted (no message holds it). */
const MARK = '\u0000';

function isMarkup(value: PageValue): value is SafeHtml {
  return typeof value === 'object' && !(value instanceof Date);
}

const byLocale = new Map<Locale, I18n>();

/** The page messages of a locale, one object per locale for the life of the process (their compiled messages are kept). */
export function i18nFor(locale: Locale): I18n {
  let i18n = byLocale.get(locale);
  if (!i18n) {
    i18n = new I18n(messagesFor(locale), locale === SOURCE_LOCALE);
    byLocale.set(locale, i18n);
  }
  return i18n;
}

/** English: what a page is in when its view was given no language (a view not converted yet, a test). */
export const ENGLISH = i18nFor(SOURCE_LOCALE);

/** The locales as a switcher lists them: each named in its own language. */
export const LOCALE_CHOICES = Object.entries(LOCALE_INFO).map(([locale, info]) => ({ locale: locale as Locale, name: info.name }));

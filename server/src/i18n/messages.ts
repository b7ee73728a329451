import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOGUES } from './catalogues.js';
import { LOCALE_INFO, SOURCE_LOCALE, type Locale } from './locales.js';
import type { Catalogue, MessageKey } from './messages/en.js';

/** What a message's arguments may be: text, a number (a plural's count), a date, or a piece the caller formats itself (markup). */
export type MessageValue<T = never> = string | number | Date | T;

/**
 * One locale's messages (catalogues.ts), formatted by intl-messageformat. A message is parsed and
 * compiled once, the first time it is used, and kept: a board page repeats the same few messages
 * on every row, and parsing is what costs (the formatter also keeps its Intl.NumberFormat,
 * PluralRules and DateTimeFormat). Dates are formatted in UTC: a page is the same wherever the
 * server runs (a reader's time zone is unknown without script).
 */
export class Messages {
  readonly locale: Locale | string;
  /** The value of the page's `lang` attribute. */
  readonly lang: string;
  /** The writing direction: the page's `dir`, mirrored layout for 'rtl'. */
  readonly dir: 'ltr' | 'rtl';
  private readonly compiled = new Map<MessageKey, IntlMessageFormat>();
  private readonly catalogue: Catalogue;
  private readonly dates: Intl.DateTimeFormat;
  private readonly numbers: Intl.NumberFormat;

  /**
   * `catalogue` and `dir` default to the locale's own; a test builds a pseudo-locale from
   * English's catalogue this way (test/helpers/pseudo-locale.ts), with English's plural rules.
   */
  constructor(locale: Locale, catalogue: Catalogue = CATALOGUES[locale], dir: 'ltr' | 'rtl' = LOCALE_INFO[locale].dir) {
    this.locale = locale;
    this.lang = locale;
    this.dir = dir;
    this.catalogue = catalogue;
    this.dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    this.numbers = new Intl.NumberFormat(locale);
  }

  /** A message as text: for a title, an attribute, an email's plain text. */
  t(key: MessageKey, values?: Readonly<Record<string, MessageValue>>): string {
    return String(this.compile(key).format(values));
  }

  /**
   * A message as its parts: text, and the values of type T as given (a view's markup, kept whole
   * so that the message's text around it is escaped and it is not).
   */
  parts<T extends object>(key: MessageKey, values?: Readonly<Record<string, MessageValue<T>>>): (string | T)[] {
    const formatted = this.compile(key).format<T>(values);
    return Array.isArray(formatted) ? formatted : [formatted];
  }

  /** A date alone, as the messages' `{when, date, medium}` writes it. */
  date(value: Date | string): string {
    return this.dates.format(typeof value === 'string' ? new Date(value) : value);
  }

  /** A number alone, grouped as the locale groups digits. */
  number(value: number): string {
    return this.numbers.format(value);
  }

  private compile(key: MessageKey): IntlMessageFormat {
    let format = this.compiled.get(key);
    if (!format) {
      format = new IntlMessageFormat(this.catalogue[key], this.lang, undefined, { ignoreTag: true });
      this.compiled.set(key, format);
    }
    return format;
  }
}

const byLocale = new Map<Locale, Messages>();

/** The messages of a locale: one object per locale for the life of the process, so its compiled messages are shared. */
export function messagesFor(locale: Locale): Messages {
  let messages = byLocale.get(locale);
  if (!messages) {
    messages = new Messages(locale);
    byLocale.set(locale, messages);
  }
  return messages;
}

/** English, the source: what a page is in when nothing chose another language. */
export const SOURCE_MESSAGES = messagesFor(SOURCE_LOCALE);

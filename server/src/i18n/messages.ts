import { IntlMessageFormat, type Formatters } from 'intl-messageformat';
import { CATALOGUES } from './catalogues.js';
import { LOCALE_INFO, SOURCE_LOCALE, type Locale } from './locales.js';
import type { Catalogue, MessageKey } from './messages/en.js';

/** What a message's arguments may be: text, a number (a plural's count), a date, or a piece the caller formats itself (markup). */
export type MessageValue<T = never> = string | number | Date | T;

/** The ICU date styles (`{when, date, medium}`), in UTC: a page is the same wherever the server runs (a reader's time zone is unknown without script). */
const UTC_DATES = {
  date: {
    short: { timeZone: 'UTC', month: 'numeric', day: 'numeric', year: '2-digit' },
    medium: { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' },
    long: { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' },
    full: { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
  },
} as const;

/** Formatted messages kept per locale (those whose arguments are all counts and dates), at most this many before starting again. */
const KEPT_RESULTS = 10_000;
const DAY_MS = 86_400_000;

/**
 * One locale's messages (catalogues.ts), formatted by intl-messageformat. A message is parsed and
 * compiled once, the first time it is used, and kept: a board page repeats the same few messages
 * on every row. Intl's formatters are slow to make and slow to call here (measured on this
 * machine: about 4 µs a number, 6 µs a plural rule, 9 µs a date, against 0.1 µs for a template),
 * so the formatters are made once per locale and options, and a message whose arguments are only
 * numbers and dates keeps its results (by count, and by day: the messages write no time), so a
 * list's "3 votes" and "May 4, 2026" are formatted once and looked up after.
 */
export class Messages {
  readonly locale: Locale | string;
  /** The value of the page's `lang` attribute. */
  readonly lang: string;
  /** The writing direction: the page's `dir`, mirrored layout for 'rtl'. */
  readonly dir: 'ltr' | 'rtl';
  private readonly compiled = new Map<MessageKey, IntlMessageFormat>();
  private readonly results = new Map<string, string>();
  private readonly formatters = cachedFormatters();
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
    const kept = resultKey(key, values);
    if (kept === undefined) return String(this.compile(key).format(values));
    let text = this.results.get(kept);
    if (text === undefined) {
      text = String(this.compile(key).format(values));
      if (this.results.size >= KEPT_RESULTS) this.results.clear();
      this.results.set(kept, text);
    }
    return text;
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
      format = new IntlMessageFormat(this.catalogue[key], this.lang, UTC_DATES, { ignoreTag: true, formatters: this.formatters });
      this.compiled.set(key, format);
    }
    return format;
  }
}

/**
 * What a result is kept under: the key and its values when they are all numbers and dates (a date
 * by its UTC day, as the messages' date styles write no time); undefined when a value is text or
 * markup, whose results are not worth keeping.
 */
function resultKey(key: MessageKey, values: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!values) return key;
  let kept: string = key;
  for (const name in values) {
    const value = values[name];
    if (typeof value === 'number') kept += `|${name}=${value}`;
    else if (value instanceof Date) kept += `|${name}@${Math.floor(value.getTime() / DAY_MS)}`;
    else return undefined;
  }
  return kept;
}

/** Intl's formatters, made once per locale and options and shared by every message of a locale (intl-messageformat's own cache costs more per call). */
function cachedFormatters(): Formatters {
  const made = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
  const cached = <T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(kind: string, make: () => T, locales: unknown, options: unknown): T => {
    const key = `${kind}|${String(locales)}|${options === undefined ? '' : JSON.stringify(options)}`;
    let formatter = made.get(key) as T | undefined;
    if (!formatter) {
      formatter = make();
      made.set(key, formatter);
    }
    return formatter;
  };
  return {
    getNumberFormat: (locales, options) => cached('number', () => new Intl.NumberFormat(locales, options), locales, options),
    getDateTimeFormat: (locales, options) => cached('date', () => new Intl.DateTimeFormat(locales, options), locales, options),
    getPluralRules: (locales, options) => cached('plural', () => new Intl.PluralRules(locales, options), locales, options),
  };
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

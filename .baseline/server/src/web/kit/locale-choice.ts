import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { isLocale, LOCALES, negotiateLocale, SOURCE_LOCALE, type Locale } from '../../i18n/index.js';
import { formField, returnPathUnder, seeOther } from './forms.js';
import { i18nFor, type I18n } from './i18n.js';

/** The cookie that keeps a visitor's or a member's choice of language, for the board and the team alike. */
export const LOCALE_COOKIE = 'feedback_locale';

/** How long the choice is kept: a year, renewed by every change. */
const KEPT_FOR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The language of a page: the reader's choice (the switcher's cookie), else the closest to what
 * their browser asks for (Accept-Language, i18n/negotiate.ts), else the project's default
 * (`feedback board brand --locale`), else English. The answer depends on two request headers, so
 * it says so (Vary), for any cache that keeps a page; the pages are private already.
 */
export function chosenLocale(ctx: AppContext, projectDefault?: string | null): Locale {
  ctx.vary('Accept-Language');
  ctx.vary('Cookie');
  const cookie = ctx.cookies.get(LOCALE_COOKIE);
  if (isLocale(cookie)) return cookie;
  return askedLocale(ctx) ?? (isLocale(projectDefault) ? projectDefault : SOURCE_LOCALE);
}

/**
 * The negotiated locale of each Accept-Language seen, by the header's text: matching one took
 * about 50 µs (formatjs's best fit), a quarter of a board page's render, and browsers send the
 * same few headers again and again. Cleared when full, so a stream of made-up headers costs a
 * match each and no memory.
 */
const byAcceptLanguage = new Map<string, Locale | undefined>();
const KEPT_HEADERS = 1_000;

function askedLocale(ctx: AppContext): Locale | undefined {
  const header = ctx.get('accept-language');
  if (header === '') return undefined;
  if (byAcceptLanguage.has(header)) return byAcceptLanguage.get(header);
  const locale = negotiateLocale(ctx.acceptsLanguages());
  if (byAcceptLanguage.size >= KEPT_HEADERS) byAcceptLanguage.clear();
  byAcceptLanguage.set(header, locale);
  return locale;
}

/** The messages of the page's language (chosenLocale). */
export function chosenI18n(ctx: AppContext, projectDefault?: string | null): I18n {
  return i18nFor(chosenLocale(ctx, projectDefault));
}

/**
 * POST …/locale, the switcher's form (views/language-switcher.ts): keeps the chosen language in a
 * cookie for a year and sends the browser back where it was (`return`, a path under `root`, as
 * every form's return: forms.ts, returnPathUnder), or to `root`. The caller has checked the
 * post's origin and budget (pages.ts, routeSteps). An unknown language is a 400 that lists ours.
 * The cookie is readable by the server only and goes to every page of the site: the board's and
 * the team's pages share it.
 */
export function keepLocale(ctx: AppContext, root: string): void {
  const locale = formField(ctx, 'locale');
  if (!isLocale(locale)) throw new AppError(400, `Choose one of the languages offered: ${LOCALES.join(', ')}.`);
  ctx.cookies.set(LOCALE_COOKIE, locale, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/', maxAge: KEPT_FOR_MS, overwrite: true });
  seeOther(ctx, returnPathUnder(formField(ctx, 'return'), root) ?? root);
}

import { BOARD_LOCALES } from '@feedbackd/sdk/contract';

/**
 * The languages of the board and the team's pages (and, later, of the emails). English is the
 * source: every other locale is typed against its keys (messages/en.ts), so a key missing in one
 * is a compile error, and test/i18n checks again at run time. The list is the contract's
 * (BOARD_LOCALES), which a board's default language (`feedback board brand --locale`) is checked against.
 */
export const LOCALES = BOARD_LOCALES;

export type Locale = (typeof LOCALES)[number];

/** What no choice, no Accept-Language and no project default settles: the language of the source. */
export const SOURCE_LOCALE: Locale = 'en';

/**
 * Each locale named in its own language (a switcher lists them so: a reader who cannot read the
 * page's language must still find their own) and its writing direction.
 */
export const LOCALE_INFO: Readonly<Record<Locale, { name: string; dir: 'ltr' | 'rtl' }>> = {
  en: { name: 'English', dir: 'ltr' },
  fr: { name: 'Français', dir: 'ltr' },
  de: { name: 'Deutsch', dir: 'ltr' },
  es: { name: 'Español', dir: 'ltr' },
  'pt-BR': { name: 'Português (Brasil)', dir: 'ltr' },
  ar: { name: 'العربية', dir: 'rtl' },
  ja: { name: '日本語', dir: 'ltr' },
};

/** Whether `value` names a supported locale exactly as LOCALES spells it (a cookie, a project's default, a form's choice). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

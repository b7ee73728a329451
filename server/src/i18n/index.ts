/*
 * The message catalogue of the board and the team's pages (and, later, of the emails): the
 * locales, each one's messages, and how a request's language is chosen. Nothing here knows of
 * HTML or Koa: web/kit/i18n.ts makes pages of these messages.
 */
export { LOCALES, LOCALE_INFO, SOURCE_LOCALE, isLocale, type Locale } from './locales.js';
export { Messages, messagesFor, SOURCE_MESSAGES, type MessageValue } from './messages.js';
export type { Catalogue, MessageKey } from './messages/en.js';
export { en as SOURCE_CATALOGUE } from './messages/en.js';
export { CATALOGUES } from './catalogues.js';
export { negotiateLocale } from './negotiate.js';

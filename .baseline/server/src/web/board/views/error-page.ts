import type { AssetPaths } from '../../kit/assets.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { refusal } from '../../kit/views/refusal.js';
import { boardPaths, page } from '../layout.js';

/** What language the board's refusal page is in, and where its switcher comes back to (board.ts chooses both). */
export interface ErrorPageContext {
  i18n?: I18n | undefined;
  /** The page to come back to after a change of language (the refused page, when it was a GET). */
  here?: string | undefined;
}

/**
 * The board's page for a refusal or a failure, with a way back to the board `slug` (or to the
 * start page, for no board), and the board's language switcher.
 */
export function errorPage(status: number, reason: string, assets: AssetPaths, slug?: string, context: ErrorPageContext = {}): SafeHtml {
  const { here } = context;
  const i18n = context.i18n ?? ENGLISH;
  const back = slug ? html`<a href="${boardPaths.board(slug)}">${i18n.t(status === 401 ? 'board.error.backSignedOut' : 'board.error.back')}</a>` : html`<a href="/">${i18n.t('board.error.startPage')}</a>`;
  const { heading, body } = refusal(status, reason, back, i18n);
  return page({ title: heading, assets, body, i18n, boardSlug: slug, here });
}

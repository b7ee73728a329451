import type { AssetPaths } from '../../kit/assets.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { refusal } from '../../kit/views/refusal.js';
import { boardPaths, page } from '../layout.js';

/** The board's page for a refusal or a failure, with a way back to the board (or to the start page, for no board). */
export function errorPage(status: number, reason: string, assets: AssetPaths, slug?: string): SafeHtml {
  const back = slug ? html`<a href="${boardPaths.board(slug)}">${status === 401 ? 'Go to the board without signing in' : 'Go to the board'}</a>` : html`<a href="/">Go to the start page</a>`;
  const { heading, body } = refusal(status, reason, back);
  return page({ title: heading, assets, body });
}

import type { AssetPaths } from '../../kit/assets.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { page } from '../layout.js';

/** What the unsubscribe page shows: the question with its button, what was done, or that the link is broken. */
export interface UnsubscribeView {
  assets: AssetPaths;
  i18n: I18n;
  slug: string;
  /** The project's name; none for a link that names no project of this board. */
  project?: string | undefined;
  /** The item the link leaves; null: every email of the project. */
  itemTitle?: string | null | undefined;
  state: 'ask' | 'done' | 'invalid';
  /** Where the button posts (the link itself). */
  action: string;
}

/**
 * GET /b/:slug/unsubscribe (docs/notifications.md): the landing page of the mail's unsubscribe
 * link. A GET never unsubscribes (mail scanners follow links); the button posts, as a mail client's
 * one-click POST does (RFC 8058), and needs no sign-in: the link's token is the permission.
 */
export function unsubscribePage(view: UnsubscribeView): SafeHtml {
  const { t } = view.i18n;
  const project = isolated(view.project ?? '');
  const title = isolated(view.itemTitle ?? '');
  const body =
    view.state === 'invalid'
      ? html`<h1>${t('unsubscribe.title')}</h1><p>${t('unsubscribe.invalid')}</p>`
      : view.state === 'done'
        ? html`<h1>${t('unsubscribe.title')}</h1><p role="status">${view.itemTitle ? t('unsubscribe.doneItem', { title }) : t('unsubscribe.doneProject', { project })}</p>`
        : html`<h1>${t('unsubscribe.title')}</h1>
<form method="post" action="${view.action}" class="unsubscribe">
<p>${view.itemTitle ? t('unsubscribe.askItem', { title }) : t('unsubscribe.askProject', { project })}</p>
<button type="submit" class="button">${t('unsubscribe.confirm')}</button>
</form>`;
  return page({ title: view.i18n.text('unsubscribe.title'), assets: view.assets, body, i18n: view.i18n, boardSlug: view.slug, here: view.action });
}

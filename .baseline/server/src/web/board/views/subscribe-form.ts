import { html, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { boardPaths } from '../layout.js';

/**
 * The item page's Subscribe / Unsubscribe button for an identified visitor (docs/notifications.md):
 * a form that posts the choice and comes back to the page, so it works without script. The button
 * says what it will do; the line beside it says where the visitor stands, and is announced with it.
 */
export function subscribeForm(slug: string, itemId: string, subscribed: boolean, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const hintId = `subscription-hint-${itemId}`;
  return html`<form method="post" action="${boardPaths.subscription(slug, itemId)}" class="subscription">
<input type="hidden" name="subscribe" value="${subscribed ? 'no' : 'yes'}">
<button type="submit" class="button secondary" aria-describedby="${hintId}">${t(subscribed ? 'board.unsubscribe.button' : 'board.subscribe.button')}</button>
<span class="hint" id="${hintId}">${t(subscribed ? 'board.subscribed.hint' : 'board.subscribe.hint')}</span>
</form>`;
}

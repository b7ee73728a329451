import { html, type SafeHtml } from '../html.js';
import { LOCALE_CHOICES, type I18n } from '../i18n.js';

/** Where a page's switcher posts to and comes back to (kit/locale-choice.ts, keepLocale). */
export interface SwitcherTarget {
  /** The area's route that keeps the choice: /b/:slug/locale or /team/locale. */
  action: string;
  /** The page to come back to: a path under the area (the route checks it again). */
  here: string;
}

/**
 * The language switcher: a form that works without script (a <select> and a button); the
 * scripts (board.js, team.js) send it as soon as a language is picked. Each language is named in
 * its own language and marked so (`lang`), so a reader who cannot read the page finds theirs and
 * a screen reader says each name in its language.
 */
export function languageSwitcher(i18n: I18n, target: SwitcherTarget): SafeHtml {
  return html`<form class="language-switcher" method="post" action="${target.action}" data-language-switcher>
<input type="hidden" name="return" value="${target.here}">
<label for="locale">${i18n.t('frame.language')}</label>
<select id="locale" name="locale">${LOCALE_CHOICES.map(({ locale, name }) => html`<option value="${locale}" lang="${locale}"${locale === i18n.locale ? html` selected` : ''}>${name}</option>`)}</select>
<button type="submit" class="button secondary">${i18n.t('frame.changeLanguage')}</button>
</form>`;
}

import type { AssetPaths } from './assets.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';
import { ENGLISH, type I18n } from './i18n.js';
import { languageSwitcher, type SwitcherTarget } from './views/language-switcher.js';

/** What fills the frame of a page of the board or of the team (documentFrame). */
export interface FrameParts {
  title: HtmlValue;
  assets: AssetPaths;
  /** More of the head after the stylesheet: a page's meta description, its link previews' tags, a brand's colours. */
  head?: HtmlValue;
  /** The header's content: the brand, the navigation, who is signed in. */
  header: HtmlValue;
  body: HtmlValue;
  /** The footer's line. */
  footer: HtmlValue;
  /** What comes after the footer (a dialog). */
  after?: HtmlValue;
  /** The page's language (its `lang` and `dir`, the skip link); English when not given. */
  i18n?: I18n | undefined;
  /** Where the footer's language switcher posts; no switcher without it. */
  switcher?: SwitcherTarget | undefined;
}

/**
 * The document every page of the board and of the team is: language and direction (`dir="rtl"`
 * mirrors the layout for Arabic), title, the stylesheet and the deferred script (ours, same
 * origin: the CSP allows nothing inline), a skip link to the main content, the header, main and
 * footer landmarks, and the footer's language switcher.
 */
export function documentFrame(parts: FrameParts): SafeHtml {
  const i18n = parts.i18n ?? ENGLISH;
  return html`<!doctype html>
<html lang="${i18n.lang}" dir="${i18n.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${parts.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${parts.assets.css}">
<script src="${parts.assets.js}" defer></script>
${parts.head}</head>
<body>
<a class="skip-link" href="#main">${i18n.t('frame.skipLink')}</a>
<header class="site-header"><div class="wrap">
${parts.header}
</div></header>
<main id="main" class="wrap" tabindex="-1">
${parts.body}
</main>
<footer class="wrap"><p>${parts.footer}</p>
${parts.switcher && parts.i18n && languageSwitcher(parts.i18n, parts.switcher)}</footer>
${parts.after}
</body>
</html>
`;
}

import type { AssetPaths } from './assets.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';

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
}

/**
 * The document every page of the board and of the team is: language, title, the stylesheet and
 * the deferred script (ours, same origin: the CSP allows nothing inline), a skip link to the main
 * content, and the header, main and footer landmarks.
 */
export function documentFrame(parts: FrameParts): SafeHtml {
  return html`<!doctype html>
<html lang="en">
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
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header"><div class="wrap">
${parts.header}
</div></header>
<main id="main" class="wrap" tabindex="-1">
${parts.body}
</main>
<footer class="wrap"><p>${parts.footer}</p></footer>
${parts.after}
</body>
</html>
`;
}

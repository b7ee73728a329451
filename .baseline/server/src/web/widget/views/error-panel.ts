import { html, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { refusal } from '../../kit/views/refusal.js';

/**
 * A refused panel (unknown project, widget off, a host origin not allowed, a bad tab): a page that
 * says why, in the panel's frame and language, and shows nothing else.
 */
export function errorPanel(status: number, reason: string, assets: { css: string; js: string }, i18n: I18n): SafeHtml {
  const { heading, body } = refusal(status, reason, html``, i18n);
  return html`<!doctype html>
<html lang="${i18n.lang}" dir="${i18n.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${heading}</title>
<link rel="stylesheet" href="${assets.css}">
</head>
<body>
<main id="main" data-refused>
${body}
</main>
</body>
</html>
`;
}

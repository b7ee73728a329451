import { html, isolatedPlain, type HtmlValue, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import type { MessageKey } from '../../../i18n/index.js';
import type { Visitor } from '../../kit/visitor-token.js';
import type { WidgetAssets } from '../assets.js';
import { panelLink, type PanelState, type Tab, TABS } from '../panel-state.js';

export interface PanelView {
  state: PanelState;
  assets: WidgetAssets['paths'];
  projectName: string;
  tab: Tab;
  /** The identified visitor, named under the tabs; none for an anonymous one. */
  visitor: Visitor | undefined;
  i18n: I18n;
  body: HtmlValue;
}

const TAB_TEXT: Record<Tab, MessageKey> = { feedback: 'widget.tab.feedback', board: 'widget.tab.board', changes: 'widget.tab.changes', mine: 'widget.tab.mine' };

/**
 * The panel's document: its language and direction, its theme (the loader's option, or else the
 * visitor's own: `color-scheme`), our stylesheet and deferred script (the CSP allows nothing
 * inline), the tabs as links (each a page without script; the script swaps only <main>), and
 * the close button the script wires to the loader. `data-origin` is the host origin the panel
 * talks to: already checked against the project's allowed origins (widget.ts).
 */
export function panelPage(view: PanelView): SafeHtml {
  const { i18n, state } = view;
  const { t } = i18n;
  const theme = state.theme ? html` data-theme="${state.theme}"` : '';
  return html`<!doctype html>
<html lang="${i18n.lang}" dir="${i18n.dir}"${theme}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${state.theme ?? 'light dark'}">
<title>${isolatedPlain(i18n.text('widget.title', { project: view.projectName }))}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${view.assets.css}">
<script src="${view.assets.js}" defer></script>
</head>
<body data-origin="${state.origin}" data-session-url="${state.base}/session">
<div class="bar">
<nav aria-label="${t('widget.tabs')}" class="tabs" data-tabs>${TABS.map(
    (tab) => html`<a href="${panelLink(state, tab)}" data-tab="${tab}"${tab === view.tab ? html` aria-current="page"` : ''}>${t(TAB_TEXT[tab])}</a>`,
  )}</nav>
<button type="button" class="close" data-close hidden>${t('widget.close')}</button>
</div>
${view.visitor?.name ? html`<p class="who">${t('widget.signedInAs', { name: view.visitor.name })}</p>` : ''}
<main id="main" tabindex="-1" data-main>
${view.body}
</main>
</body>
</html>
`;
}

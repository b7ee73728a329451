import MarkdownIt from 'markdown-it';
import { rendererMarkup, type SafeHtml } from './html.js';

/**
 * Markdown as the board shows it (a changelog entry's body: docs/changelog.md), rendered by
 * markdown-it with raw HTML off: `<script>` or `<img onerror>` typed in a body is shown as text.
 * Links keep only http(s) and mailto addresses (a `javascript:` or `data:` link stays text) and
 * carry rel="nofollow noopener". Images are off: an image from another site would tell it who
 * reads the board (and the board's CSP loads none), so `![alt](url)` renders as a link to it.
 * Headings move down two levels, under the page's h1 and the entry's own h2.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
markdown.disable(['image']);

const SAFE_SCHEMES = /^(?:https?:|mailto:)/i;
markdown.validateLink = (url: string) => SAFE_SCHEMES.test(url.trim());

const renderToken = markdown.renderer.renderToken.bind(markdown.renderer);
markdown.renderer.rules.link_open = (tokens, idx, options) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener');
  return renderToken(tokens, idx, options);
};
for (const rule of ['heading_open', 'heading_close'] as const) {
  markdown.renderer.rules[rule] = (tokens, idx, options) => {
    const token = tokens[idx]!;
    token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
    return renderToken(tokens, idx, options);
  };
}

/** A Markdown text as safe HTML. */
export function markdownHtml(text: string): SafeHtml {
  return rendererMarkup(markdown.render(text));
}

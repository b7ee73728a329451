import { html, type SafeHtml } from '../html.js';
import type { ListPage } from './list-parts.js';

/*
 * Numbered pages, as the GOV.UK Design System draws them: Previous, the first page, the pages
 * around this one, the last page, Next, with gaps shown as an ellipsis. A long list (a roadmap
 * column of thousands of items) keeps a short, fixed set of links, and a reader can jump to its
 * end or back to its start in one step.
 */

/** Pages shown on each side of the current one. */
const AROUND = 1;

/** The page numbers to link, in order, with `gap` where pages are left out. */
export function pageNumbers(page: number, totalPages: number): (number | 'gap')[] {
  const shown: (number | 'gap')[] = [];
  for (let n = 1; n <= totalPages; n++) {
    const near = Math.abs(n - page) <= AROUND;
    if (n === 1 || n === totalPages || near) shown.push(n);
    else if (shown.at(-1) !== 'gap') shown.push('gap');
  }
  // A gap of a single page takes as much room as that page's link: show the page instead.
  return shown.map((entry, i) => {
    const before = shown[i - 1];
    const after = shown[i + 1];
    return entry === 'gap' && typeof before === 'number' && after === before + 2 ? before + 1 : entry;
  });
}

/** The pages of a list as numbered links; nothing for a list of one page. */
export function numberedPagination(list: ListPage, pageLink: (page: number) => string): SafeHtml | false {
  if (list.totalPages <= 1) return false;
  const numbers = pageNumbers(list.page, list.totalPages);
  return html`<nav class="pagination numbered" aria-label="Pages">
<p>Page ${list.page} of ${list.totalPages}</p>
<ul>
${list.page > 1 && html`<li><a href="${pageLink(Math.min(list.page - 1, list.totalPages))}" rel="prev">Previous page</a></li>`}
${numbers.map((n) =>
    n === 'gap'
      ? html`<li class="gap" aria-hidden="true">&hellip;</li>`
      : n === list.page
        ? html`<li><a href="${pageLink(n)}" aria-current="page" aria-label="Page ${n}">${n}</a></li>`
        : html`<li><a href="${pageLink(n)}" aria-label="Page ${n}">${n}</a></li>`,
  )}
${list.page < list.totalPages && html`<li><a href="${pageLink(list.page + 1)}" rel="next">Next page</a></li>`}
</ul>
</nav>`;
}

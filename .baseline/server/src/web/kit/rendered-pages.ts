import type { SafeHtml } from './html.js';

/**
 * Pages kept rendered, by everything they are made from. A page is a pure function of its
 * statement's answer (as the database's text), the request's address and language, and the
 * visitor; a board's first page is asked far more often than its items change. When the same
 * request meets the same answer, the page kept is sent instead of parsing the answer and
 * rendering it again (about a quarter of the board page's server time, profiled under wrk): the
 * statement still runs on every request, so nothing older than the database's answer is shown.
 *
 * Kept per owner (the project as the board's project cache holds it), so that a change of its
 * settings (a brand, a language), which makes a new project object, leaves the old pages to the
 * garbage collector. Bounded per owner: the oldest page goes first.
 */
export class RenderedPages {
  private readonly byOwner = new WeakMap<object, Map<string, SafeHtml>>();

  constructor(private readonly maxPages: number) {}

  /** The page for `key` (every input of `render`, as text) kept for `owner`, or `render()`'s, then kept. */
  page(owner: object, key: string, render: () => SafeHtml): SafeHtml {
    let pages = this.byOwner.get(owner);
    if (!pages) this.byOwner.set(owner, (pages = new Map()));
    const kept = pages.get(key);
    if (kept) return kept;
    const rendered = render();
    if (pages.size >= this.maxPages) pages.delete(pages.keys().next().value!);
    pages.set(key, rendered);
    return rendered;
  }
}

import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { date } from '../../kit/views/list-parts.js';
import { pagination } from '../../kit/views/list-parts.js';
import { count } from '../../kit/views/parts.js';
import { person } from '../../kit/views/people.js';

/** An identified voter, as the team sees them (admin/item-people.sql.ts). */
export interface Voter {
  externalId: string;
  name: string | null;
  email: string | null;
  votedAt: string;
}

/** Who posted an item and one page of who votes for it. */
export interface ItemPeople {
  /** The submitter's end user; null for an anonymous item (or an erased submitter). */
  submitter: { externalId: string; name: string | null; email: string | null } | null;
  /** Votes by end users, and by anonymous callers (a hashed address, which names nobody). */
  identified: number;
  anonymous: number;
  /** This page of the identified voters, newest vote first. */
  voters: readonly Voter[];
  page: number;
  pageSize: number;
}

/**
 * The side column's submitter: their name and initials as on the board, and what only the team
 * sees, the host app's id for them and their email, to reach them or look them up.
 */
export function submitterSection(people: ItemPeople): SafeHtml {
  const { submitter } = people;
  return html`<section aria-labelledby="submitter-title">
<h2 id="submitter-title">Submitter</h2>
<p>${person(submitter?.name)}</p>
${submitter
    ? html`<dl class="facts">
<dt>External ID</dt><dd><code>${isolated(submitter.externalId)}</code></dd>
<dt>Email</dt><dd>${submitter.email ? html`<a href="mailto:${submitter.email}">${isolated(submitter.email)}</a>` : 'Not given'}</dd>
</dl>`
    : html`<p class="hint">Posted without an end user: there is nobody to contact.</p>`}
</section>`;
}

/**
 * The side column's voters: how many are identified and how many anonymous, then the identified
 * ones a page at a time (`?voters=2`), each with their name, external ID and email.
 */
export function votersSection(people: ItemPeople, pageLink: (page: number) => string): SafeHtml {
  const totalPages = Math.max(1, Math.ceil(people.identified / people.pageSize));
  return html`<section aria-labelledby="voters-title">
<h2 id="voters-title">Voters</h2>
<p>${count(people.identified, 'identified voter')}<br>${count(people.anonymous, 'anonymous vote')}</p>
${people.voters.length === 0
    ? html`<p class="empty">${people.identified === 0 ? 'No identified person has voted.' : 'There are no voters on this page.'}</p>`
    : html`<ol class="voters">${people.voters.map(
        (v) => html`<li>${person(v.name)}
<span class="hint"><span class="visually-hidden">External ID: </span><code>${isolated(v.externalId)}</code></span>
${v.email && html`<span class="hint"><span class="visually-hidden">Email: </span>${isolated(v.email)}</span>`}
<span class="hint">Voted on ${date(v.votedAt)}</span></li>`,
      )}</ol>`}
${pagination({ page: people.page, totalPages }, pageLink)}
</section>`;
}

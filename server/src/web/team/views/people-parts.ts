import { html, isolated, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { pagination } from '../../kit/views/list-parts.js';
import { when } from './when.js';
import { person } from '../../kit/views/people.js';

/** An identified voter, as the team sees them (domain/items/item-people.sql.ts). */
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
  /** People told when the item moves (subscriptions in force). */
  subscribers: number;
  /** This page of the identified voters, newest vote first. */
  voters: readonly Voter[];
  page: number;
  pageSize: number;
}

/**
 * The side column's submitter: their name and initials as on the board, and what only the team
 * sees, the host app's id for them and their email, to reach them or look them up.
 */
export function submitterSection(people: ItemPeople, i18n: I18n): SafeHtml {
  const { submitter } = people;
  const { t } = i18n;
  return html`<section aria-labelledby="submitter-title">
<h2 id="submitter-title">${t('team.submitter.title')}</h2>
<p>${person(submitter?.name, i18n)}</p>
${submitter
    ? html`<dl class="facts">
<dt>${t('team.submitter.externalId')}</dt><dd><code>${isolated(submitter.externalId)}</code></dd>
<dt>${t('team.submitter.email')}</dt><dd>${submitter.email ? html`<a href="mailto:${submitter.email}">${isolated(submitter.email)}</a>` : t('team.submitter.noEmail')}</dd>
</dl>`
    : html`<p class="hint">${t('team.submitter.none')}</p>`}
</section>`;
}

/**
 * The side column's voters: how many are identified and how many anonymous, and how many people
 * are subscribed (the submitter, voters, commenters and those who chose to), then the identified
 * ones a page at a time (`?voters=2`), each with their name, external ID and email.
 */
export function votersSection(people: ItemPeople, pageLink: (page: number) => string, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const totalPages = Math.max(1, Math.ceil(people.identified / people.pageSize));
  return html`<section aria-labelledby="voters-title">
<h2 id="voters-title">${t('team.voters.title')}</h2>
<p>${t('count.identifiedVoter', { count: people.identified })}<br>${t('count.anonymousVote', { count: people.anonymous })}<br><span data-subscribers>${t('count.subscriber', { count: people.subscribers })}</span></p>
${people.voters.length === 0
    ? html`<p class="empty">${t(people.identified === 0 ? 'team.voters.none' : 'team.voters.nonePage')}</p>`
    : html`<ol class="voters">${people.voters.map(
        (v) => html`<li>${person(v.name, i18n)}
<span class="hint"><span class="visually-hidden">${t('team.voters.externalId')} </span><code>${isolated(v.externalId)}</code></span>
${v.email && html`<span class="hint"><span class="visually-hidden">${t('team.voters.email')} </span>${isolated(v.email)}</span>`}
<span class="hint">${t('team.voters.votedOn', { date: when(v.votedAt, i18n) })}</span></li>`,
      )}</ol>`}
${pagination({ page: people.page, totalPages }, pageLink, i18n)}
</section>`;
}

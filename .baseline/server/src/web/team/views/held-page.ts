import type { HeldPost } from '@feedbackd/sdk/contract';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { errorSummary, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';
import type { TeamProject } from '../session.js';
import type { TeamAssetPaths } from '../team-assets.js';
import { heldTabs } from './inbox-parts.js';
import { pluralForms } from './plural-forms.js';
import { when } from './when.js';

export interface HeldView {
  project: TeamProject;
  assets: TeamAssetPaths;
  queue: { items: HeldPost[]; total: number };
  /** What the last decision did (from the address it sent the browser back to). */
  notice: { name: 'approved' | 'rejected' | 'blocked'; count: number }[];
  problems: Problem[];
  i18n: I18n;
}

/**
 * GET /team/held: the posts held for the team (docs/moderation.md), oldest first, in one form
 * like the inbox's bulk form (a checkbox per post, "Select all on this page", the bar that stays
 * in view), whose buttons approve or reject the chosen posts (POST /team/held). The script adds
 * `a` and `r` (static/team.js) for the selected posts, or the one with the focus.
 */
export function heldPage(view: HeldView): SafeHtml {
  const { i18n, queue } = view;
  const { t } = i18n;
  const body = html`<h1>${t('team.held.title')}</h1>
${errorSummary(view.problems, i18n)}
${view.notice.length > 0 && html`<div class="banner" data-banner><p class="notice" role="status">${view.notice.map(({ name, count }, i) => html`${i > 0 ? ' ' : ''}${t(`team.held.${name}`, { count })}`)}</p></div>`}
${heldTabs(queue.total, true, i18n)}
<p id="list-summary">${t('team.held.intro')}</p>
${queue.items.length === 0
    ? html`<p class="empty">${t('team.held.empty')}</p>`
    : html`<form method="post" action="${teamPaths.held}" class="bulk" data-held>
<fieldset class="bulk-bar">
<legend class="visually-hidden">${t('team.held.legend')}</legend>
<div class="select-all"><input type="checkbox" id="select-all" name="all" value="page" data-select-all><label for="select-all">${t('team.bulk.selectAll')}</label></div>
<output class="selected-count" for="select-all" data-selected-count${pluralForms(i18n, 'team.bulk.selected')} hidden></output>
<div class="bulk-status"><input type="checkbox" id="block" name="block"><label for="block">${t('team.held.block')}</label>
<button type="submit" name="decision" value="approve" class="button">${t('team.held.approve')}</button>
<button type="submit" name="decision" value="reject" class="button secondary">${t('team.held.reject')}</button></div>
</fieldset>
<ol class="items" aria-labelledby="list-summary">${queue.items.map((post) => row(post, i18n))}</ol>
</form>`}`;
  return teamPage({ title: i18n.text(view.problems.length > 0 ? 'team.inbox.titleWithErrors' : 'team.held.title'), assets: view.assets, project: view.project, body, i18n, here: teamPaths.held });
}

function row(post: HeldPost, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const box = `select-${post.id}`;
  const title = post.title ?? post.content ?? '';
  // A comment links to its item; a submission has no page yet: its row is its own anchor.
  const href = post.kind === 'comment' && post.feedbackId ? teamPaths.item(post.feedbackId) : `#held-${post.id}`;
  return html`<li class="item" data-item="${post.id}" id="held-${post.id}">
<input type="checkbox" name="id" value="${post.id}" id="${box}">
<input type="hidden" name="shown" value="${post.id}">
<div class="item-body">
<h2 class="item-title"><label for="${box}" class="visually-hidden">${t('team.inbox.select', { title: isolated(title) })}</label><a href="${href}">${isolated(title)}</a></h2>
<ul class="meta">
<li class="tag">${t(post.kind === 'comment' ? 'team.held.comment' : 'team.held.submission')}</li>
<li class="tag">${t('team.held.reason', { reason: post.reason })}</li>
<li>${post.author ? isolated(post.author.name ?? post.author.externalId) : t('team.held.anonymous')}</li>
<li>${when(post.createdAt, i18n)}</li>
</ul>
${post.kind === 'feedback' && post.description && html`<p class="excerpt"><bdi>${post.description}</bdi></p>`}
</div>
</li>`;
}

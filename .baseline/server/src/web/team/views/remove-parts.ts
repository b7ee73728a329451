import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, isolated, isolatedPlain, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { itemMeta, label } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';
import type { TeamProject } from '../session.js';

/** The items a duplicate may be merged into: those like its title, or those a search found. */
export interface MergeCandidates {
  /** The search as typed (`?merge=`), or undefined for the items like the title. */
  search: string | undefined;
  items: readonly Pick<FeedbackListItem, 'id' | 'title' | 'status' | 'voteCount' | 'commentCount'>[];
}

/**
 * The item page's merge section: a search (a GET form, so it works without script) and the items
 * found, one radio button each, in a form that posts the choice. The post moves the duplicate's
 * votes and comments and deletes it, through the API's own merge.
 */
export function mergeSection(item: Pick<FeedbackListItem, 'id' | 'title'>, candidates: MergeCandidates, problem: string | undefined, i18n: I18n): SafeHtml {
  const { search, items } = candidates;
  const { t } = i18n;
  return html`<section aria-labelledby="merge-title">
<h2 id="merge-title">${t('team.merge.title')}</h2>
<p class="hint">${t('team.merge.hint')}</p>
<form method="get" action="${teamPaths.item(item.id)}" class="filters" role="search" aria-label="${t('team.merge.find')}">
<div class="field"><label for="merge-search">${t('team.merge.find')}</label><input type="search" id="merge-search" name="merge" value="${search ?? ''}" maxlength="200"></div>
<button type="submit" class="button secondary">${t('team.merge.findButton')}</button>
</form>
${items.length === 0
    ? html`<p class="empty">${search ? t('team.merge.noMatch', { search: isolated(search) }) : t('team.merge.noSimilar')}</p>`
    : html`<form method="post" action="${teamPaths.itemMerge(item.id)}" novalidate>
${search && html`<input type="hidden" name="merge" value="${search}">`}
<fieldset class="field${problem ? ' invalid' : ''}"${problem ? html` aria-describedby="intoId-error"` : ''}>
<legend>${search ? t('team.merge.matching', { search: isolated(search) }) : t('team.merge.similar')}</legend>
${problem && html`<p class="field-error" id="intoId-error"><span class="visually-hidden">${t('field.errorPrefix')} </span>${problem}</p>`}
${items.map(
        (c, i) => html`<div><input type="radio" name="intoId" value="${c.id}" id="${i === 0 ? 'intoId' : `into-${c.id}`}"> <label for="${i === 0 ? 'intoId' : `into-${c.id}`}">${isolated(c.title)} <span class="hint">${t('team.merge.candidate', { status: label(c.status, i18n), count: c.voteCount, comments: c.commentCount })}</span></label></div>`,
      )}
</fieldset>
<button type="submit" class="button">${t('team.merge.submit')}</button>
</form>`}
</section>`;
}

/** The item page's way to delete: a link to the confirmation (a page of its own, so one click deletes nothing). */
export function deleteSection(item: Pick<FeedbackListItem, 'id'>, { t }: I18n): SafeHtml {
  return html`<section aria-labelledby="delete-title">
<h2 id="delete-title">${t('team.delete.title')}</h2>
<p><a class="button secondary" href="${teamPaths.itemDelete(item.id)}">${t('team.delete.link')}</a></p>
</section>`;
}

/** GET /team/items/:id/delete: what deleting takes with it, and the one button that does it. */
export function deletePage(project: TeamProject, assets: TeamAssetPaths, item: FeedbackListItem, i18n: I18n = ENGLISH): SafeHtml {
  const { t } = i18n;
  const body = html`<h1>${t('team.delete.heading', { title: isolated(item.title) })}</h1>
${itemMeta(item, { i18n })}
<p>${t('team.delete.what', { count: item.voteCount, comments: item.commentCount })}</p>
<form method="post" action="${teamPaths.itemDelete(item.id)}">
<button type="submit" class="button">${t('team.delete.confirm')}</button>
<a href="${teamPaths.item(item.id)}">${t('team.delete.cancel')}</a>
</form>`;
  return teamPage({ title: t('team.delete.pageTitle', { title: isolatedPlain(item.title) }), assets, project, body, i18n, here: teamPaths.itemDelete(item.id) });
}

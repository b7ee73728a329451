import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, isolated, isolatedPlain, type SafeHtml } from '../../kit/html.js';
import { count, itemMeta, label } from '../../kit/views/parts.js';
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
export function mergeSection(item: Pick<FeedbackListItem, 'id' | 'title'>, candidates: MergeCandidates, problem: string | undefined): SafeHtml {
  const { search, items } = candidates;
  return html`<section aria-labelledby="merge-title">
<h2 id="merge-title">Merge into another item</h2>
<p class="hint">For a duplicate: its votes and comments move to the item you choose (a voter of both counts once), and this item is deleted.</p>
<form method="get" action="${teamPaths.item(item.id)}" class="filters" role="search" aria-label="Find the item to merge into">
<div class="field"><label for="merge-search">Find the item to merge into</label><input type="search" id="merge-search" name="merge" value="${search ?? ''}" maxlength="200"></div>
<button type="submit" class="button secondary">Find</button>
</form>
${items.length === 0
    ? html`<p class="empty">${search ? html`No other item matches “${isolated(search)}”.` : 'No item has a title like this one. Search for the one to merge into.'}</p>`
    : html`<form method="post" action="${teamPaths.itemMerge(item.id)}" novalidate>
${search && html`<input type="hidden" name="merge" value="${search}">`}
<fieldset class="field${problem ? ' invalid' : ''}"${problem ? html` aria-describedby="intoId-error"` : ''}>
<legend>${search ? html`Items matching “${isolated(search)}”` : 'Items with a title like this one'}</legend>
${problem && html`<p class="field-error" id="intoId-error"><span class="visually-hidden">Error: </span>${problem}</p>`}
${items.map(
        (c, i) => html`<div><input type="radio" name="intoId" value="${c.id}" id="${i === 0 ? 'intoId' : `into-${c.id}`}"> <label for="${i === 0 ? 'intoId' : `into-${c.id}`}">${isolated(c.title)} <span class="hint">(${label(c.status)}, ${count(c.voteCount, 'vote')}, ${count(c.commentCount, 'comment')})</span></label></div>`,
      )}
</fieldset>
<button type="submit" class="button">Merge this item into the chosen one</button>
</form>`}
</section>`;
}

/** The item page's way to delete: a link to the confirmation (a page of its own, so one click deletes nothing). */
export function deleteSection(item: Pick<FeedbackListItem, 'id'>): SafeHtml {
  return html`<section aria-labelledby="delete-title">
<h2 id="delete-title">Delete</h2>
<p><a class="button secondary" href="${teamPaths.itemDelete(item.id)}">Delete this item…</a></p>
</section>`;
}

/** GET /team/items/:id/delete: what deleting takes with it, and the one button that does it. */
export function deletePage(project: TeamProject, assets: TeamAssetPaths, item: FeedbackListItem): SafeHtml {
  const body = html`<h1>Delete “${isolated(item.title)}”?</h1>
${itemMeta(item)}
<p>Its ${count(item.voteCount, 'vote')}, ${count(item.commentCount, 'comment')} and status history are deleted with it. This cannot be undone. To keep its votes, merge it into another item instead.</p>
<form method="post" action="${teamPaths.itemDelete(item.id)}">
<button type="submit" class="button">Delete for good</button>
<a href="${teamPaths.item(item.id)}">Cancel, keep it</a>
</form>`;
  return teamPage({ title: html`Delete ${isolatedPlain(item.title)}?`, assets, project, body });
}

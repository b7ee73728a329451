import type { FeedbackDetail } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../assets.js';
import type { Visitor } from '../visitors.js';
import { html, type SafeHtml } from '../html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { count, itemMeta, voteForm } from './parts.js';

export interface ItemView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  item: FeedbackDetail;
  voted: boolean;
}

/** GET /b/:slug/items/:id: the item, its vote button, and its comments oldest first (the team's marked). */
export function itemPage(view: ItemView): SafeHtml {
  const { project, item } = view;
  const here = boardPaths.item(project.slug, item.id);
  const body = html`<p><a href="${boardPaths.board(project.slug)}">Back to all feedback</a></p>
<article class="detail">
${voteForm(project.slug, item, view.voted, here)}
<div class="item-body">
<h1>${item.title}</h1>
${itemMeta(item)}
${item.description ? html`<p class="description">${item.description}</p>` : html`<p class="empty">No description.</p>`}
<p class="hint">Posted ${date(item.createdAt)}${item.endUser?.name ? html` by ${item.endUser.name}` : ''}</p>
</div>
</article>
<section aria-labelledby="comments-title">
<h2 id="comments-title">${count(item.comments.length, 'comment')}</h2>
${item.comments.length === 0
    ? html`<p class="empty">No comments yet.</p>`
    : html`<ol class="comments">${item.comments.map(
        (c) => html`<li class="comment${c.author?.isTeam ? ' team' : ''}">
<p><strong>${c.author?.name ?? 'Anonymous'}</strong>${c.author?.isTeam ? html` <span class="team-badge">Team</span>` : ''} <span class="hint">${date(c.createdAt)}</span></p>
<p>${c.content}</p>
</li>`,
      )}</ol>`}
</section>`;
  return page({ title: item.title, assets: view.assets, project, visitor: view.visitor, body });
}

/** A timestamp of the API (ISO 8601, UTC) as a <time> that reads as a date. */
function date(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
}

import type { FeedbackDetail } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { commentsSection, date } from '../../kit/views/list-parts.js';
import { itemMeta, voteForm } from '../../kit/views/parts.js';

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
<h1>${isolated(item.title)}</h1>
${itemMeta(item)}
${item.description ? html`<p class="description">${isolated(item.description)}</p>` : html`<p class="empty">No description.</p>`}
<p class="hint">Posted ${date(item.createdAt)}${item.endUser?.name ? html` by ${isolated(item.endUser.name)}` : ''}</p>
</div>
</article>
${commentsSection(item.comments)}`;
  return page({ title: item.title, assets: view.assets, project, visitor: view.visitor, path: boardPaths.item(project.slug, item.id), body });
}

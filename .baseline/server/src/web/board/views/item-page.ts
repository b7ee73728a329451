import type { FeedbackDetail } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { date } from '../../kit/views/list-parts.js';
import { unsignedGuard, type FormGuard } from '../../kit/form-guard.js';
import { conversation, type CommentFormState } from './comment-parts.js';
import { itemMeta, voteForm } from '../../kit/views/parts.js';
import { person } from '../../kit/views/people.js';
import { statusTimeline, type StatusStep } from '../../kit/views/timeline.js';
import { shippedIn } from './changelog-page.js';
import { subscribeForm } from './subscribe-form.js';

export interface ItemView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  /** The API's public detail: the submitter's name and avatar URL only, never their email or external id. */
  item: FeedbackDetail;
  voted: boolean;
  /** Whether the identified visitor is told when the item moves; undefined for an anonymous one (no button). */
  subscribed?: boolean | undefined;
  /** The item's status changes, oldest first (board.sql.ts, STATUS_HISTORY): what and when, not who. */
  history: readonly StatusStep[];
  /** The published changelog entries that link the item, newest first ("Shipped in …"). */
  shippedIn?: readonly { id: string; title: string }[] | undefined;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
  /** The spam guard of the comment forms (kit/form-guard.ts). */
  guard?: FormGuard | undefined;
  /** Whether anonymous visitors may comment (the project's setting). */
  anonymousComments?: boolean | undefined;
  /** A refused comment form, shown again filled with the reason. */
  refused?: CommentFormState | undefined;
  /** The visitor's comment was held for the team: the conversation says so above its form. */
  heldComment?: boolean | undefined;
}

/**
 * GET /b/:slug/items/:id: the item, its vote button, who posted it (their name beside a circle of
 * their initials, or Anonymous), its status history, and its conversation (comment-parts.ts):
 * the pinned answer first, threads of one level, the team's marked, and the comment form.
 */
export function itemPage(view: ItemView): SafeHtml {
  const { project, item } = view;
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  const here = boardPaths.item(project.slug, item.id);
  const when = (iso: string) => date(iso, i18n);
  const body = html`<p><a href="${boardPaths.board(project.slug)}">${t('board.item.back')}</a></p>
<article class="detail">
${voteForm(project.slug, item, view.voted, here, i18n)}
<div class="item-body">
<h1>${isolated(item.title)}</h1>
${itemMeta(item, { i18n })}
${shippedIn(project.slug, view.shippedIn ?? [], i18n)}
<p class="submitter">${person(item.endUser?.name, i18n)} <span class="hint"><time datetime="${item.createdAt}">${t('item.postedOn', { when: new Date(item.createdAt) })}</time></span></p>
${item.description ? html`<p class="description">${isolated(item.description)}</p>` : html`<p class="empty">${t('board.item.noDescription')}</p>`}
${view.subscribed === undefined ? '' : subscribeForm(project.slug, item.id, view.subscribed, i18n)}
</div>
</article>
${statusTimeline(item, view.history, when, false, i18n)}
${conversation({ slug: project.slug, itemId: item.id, comments: item.comments, visitor: view.visitor, anonymousComments: view.anonymousComments ?? false, guard: view.guard ?? unsignedGuard(), when, i18n, refused: view.refused, held: view.heldComment })}`;
  return page({ title: item.title, assets: view.assets, project, visitor: view.visitor, path: boardPaths.item(project.slug, item.id), body, i18n });
}

import { END_USER_COMMENT_MAX_LENGTH, type Comment } from '@feedbackd/sdk/contract';
import { stampScope, type FormGuard } from '../../kit/form-guard.js';
import { html, type HtmlValue, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { boardPaths } from '../../../board-paths.js';
import { commentItem, commentThread, type ThreadOptions } from '../../kit/views/thread.js';
import type { Visitor } from '../visitors.js';

/*
 * The board's side of an item's conversation (docs/board.md, "Conversation"): the thread
 * (kit/views/thread.ts) with a Reply under each top-level comment, Edit and Delete under a
 * visitor's own comments until the team has answered them, and the comment form. Every control
 * is a form that posts and comes back (a <details> opens a reply or an edit without script);
 * board.js adds a new comment in place.
 */

/** Which form a refusal is about, what was typed in it, and why it was refused: shown filled again. */
export interface CommentFormState {
  /** 'new', `reply:<top-level comment id>` or `edit:<comment id>`. */
  form: string;
  content: string;
  problem: HtmlValue;
}

export interface ConversationView {
  slug: string;
  itemId: string;
  comments: readonly Comment[];
  visitor: Visitor | undefined;
  /** Whether the project takes comments from anonymous visitors (`feedback board anonymous-comments`). */
  anonymousComments: boolean;
  guard: FormGuard;
  when: (iso: string) => SafeHtml;
  i18n: I18n;
  refused?: CommentFormState | undefined;
  /** The visitor's comment was held for the team (docs/moderation.md): a notice above the form says so. */
  held?: boolean | undefined;
  /** The id of the visitor's comment whose edit was held for the team (docs/moderation.md, "Edits"): a notice under it says so. */
  heldEdit?: string | undefined;
}

/** The paths of a comment's posts. */
export const commentPaths = {
  create: (slug: string, id: string) => `${boardPaths.item(slug, id)}/comments`,
  edit: (slug: string, id: string, comment: string) => `${boardPaths.item(slug, id)}/comments/${encodeURIComponent(comment)}/edit`,
  delete: (slug: string, id: string, comment: string) => `${boardPaths.item(slug, id)}/comments/${encodeURIComponent(comment)}/delete`,
};

/**
 * What a comment form's stamp is bound to (kit/form-guard.ts): this item's comment form, or the
 * reply form under this comment, shown to this visitor.
 */
export function commentScope(slug: string, itemId: string, parentId: string | undefined, visitor: Visitor | undefined): string {
  return stampScope(slug, parentId === undefined ? `comment:${itemId}` : `comment:${itemId}:${parentId}`, visitor);
}

/** Whether the visitor may comment here: identified, or anonymous where the project allows it. */
export function mayComment(view: Pick<ConversationView, 'visitor' | 'anonymousComments'>): boolean {
  return view.visitor !== undefined || view.anonymousComments;
}

/**
 * Whether `comment` is the visitor's own and still theirs to change: not the team's, and no team
 * reply after it in its thread (domain/comments/comments.service.ts checks the same when it is posted).
 */
function ownOpen(comment: Comment, comments: readonly Comment[], visitor: Visitor | undefined): boolean {
  if (!isAuthor(comment, visitor)) return false;
  const top = comment.parentId ?? comment.id;
  return !comments.some((c) => c.parentId === top && c.author?.isTeam && c.id !== comment.id && c.createdAt >= comment.createdAt);
}

/** Whether the visitor wrote `comment` (the team's are nobody's on the board). */
function isAuthor(comment: Comment, visitor: Visitor | undefined): visitor is Visitor {
  return visitor !== undefined && !comment.author?.isTeam && comment.author?.id === visitor.externalId;
}

/**
 * Whether a refusal is shown at its own form: the new comment's and a reply's where the visitor may
 * comment, an edit where they wrote the comment. Any other (a change of someone else's comment) is
 * said above the conversation.
 */
function refusedInPlace(view: ConversationView): boolean {
  const form = view.refused?.form;
  if (form === undefined) return true;
  if (form === 'new' || form.startsWith('reply:')) return mayComment(view) && (form === 'new' || view.comments.some((c) => `reply:${c.id}` === form && !c.parentId));
  return view.comments.some((c) => `edit:${c.id}` === form && isAuthor(c, view.visitor));
}

/** The thread's options on the board: who may reply, edit and delete, and the forms for it. */
export function boardThreadOptions(view: ConversationView): ThreadOptions {
  const { i18n } = view;
  const { t } = i18n;
  return {
    when: view.when,
    i18n,
    actions: (comment) => {
      const parts: SafeHtml[] = [];
      // The edit waits for the team: the comment above still reads as it did.
      if (view.heldEdit === comment.id && isAuthor(comment, view.visitor)) parts.push(html`<p class="form-notice" role="status" data-edit-held>${t('comments.editHeld')}</p>`);
      const refusedEdit = view.refused?.form === `edit:${comment.id}` && isAuthor(comment, view.visitor) ? view.refused : undefined;
      // The author's edit refused (the team answered meanwhile) comes back open, as typed, with why.
      if (ownOpen(comment, view.comments, view.visitor) || refusedEdit) {
        const refused = refusedEdit;
        parts.push(html`<details class="comment-edit"${refused ? html` open` : ''}><summary>${t('comments.edit')}</summary>
${commentForm(commentPaths.edit(view.slug, view.itemId, comment.id), `edit-${comment.id}`, t('comments.editLabel'), refused?.content ?? comment.content, refused?.problem, t('comments.save'), false)}
</details>
<form method="post" action="${commentPaths.delete(view.slug, view.itemId, comment.id)}" class="comment-delete"><button type="submit" class="link-button">${t('comments.delete')}</button></form>`);
      }
      if (!comment.parentId && mayComment(view)) {
        const refused = view.refused?.form === `reply:${comment.id}` ? view.refused : undefined;
        parts.push(html`<details class="comment-reply"${refused ? html` open` : ''}><summary>${t('comments.reply')}</summary>
${commentForm(commentPaths.create(view.slug, view.itemId), `reply-${comment.id}`, t('comments.replyLabel'), refused?.content ?? '', refused?.problem, t('comments.postReply'), view.guard.fields(i18n, `reply-${comment.id}`, commentScope(view.slug, view.itemId, comment.id, view.visitor)), comment.id)}
</details>`);
      }
      return parts.length > 0 && html`<div class="comment-actions">${parts}</div>`;
    },
  };
}

/** The conversation and, after it, the comment form (or why there is none: sign in through the app). */
export function conversation(view: ConversationView): SafeHtml {
  const { t } = view.i18n;
  const refused = view.refused?.form === 'new' ? view.refused : undefined;
  const form = mayComment(view)
    ? commentForm(commentPaths.create(view.slug, view.itemId), 'comment-content', t('comments.formLabel'), refused?.content ?? '', refused?.problem, t('comments.post'), view.guard.fields(view.i18n, 'comment', commentScope(view.slug, view.itemId, undefined, view.visitor)))
    : html`<p class="hint" data-sign-in-to-comment>${t('comments.signInToComment')}</p>`;
  const elsewhere = !refusedInPlace(view) && html`<div class="form-problem" role="alert" tabindex="-1" data-error-summary>${view.refused!.problem}</div>`;
  return html`${elsewhere}
${commentThread(view.comments, boardThreadOptions(view))}
<section aria-labelledby="comment-form-title" class="comment-form-section">
<h2 id="comment-form-title">${t('comments.formTitle')}</h2>
${view.held && html`<p class="form-notice" role="status" data-comment-held>${t('comments.held')}</p>`}
${form}
</section>`;
}

/** One comment as the page shows it, for the script to add in place (board/comments.ts answers it as JSON). */
export function commentFragment(comment: Comment, view: ConversationView): SafeHtml {
  return commentItem(comment, [], boardThreadOptions({ ...view, comments: [comment] }));
}

/**
 * A comment's form: its text, what was refused and why (an alert the script fills too), and for a
 * new comment or a reply the spam guard's fields (`guard`; false for an edit, which only an
 * identified visitor makes).
 */
function commentForm(action: string, id: string, label: HtmlValue, content: string, problem: HtmlValue | undefined, button: HtmlValue, guard: SafeHtml | false, parentId?: string): SafeHtml {
  return html`<form method="post" action="${action}" class="comment-form" data-comment-form novalidate>
<div class="form-problem" role="alert" data-form-problem${problem ? html` tabindex="-1" data-error-summary` : ''}>${problem ?? ''}</div>
${parentId ? html`<input type="hidden" name="parentId" value="${parentId}">` : ''}
<div class="field"><label for="${id}">${label}</label>
<textarea id="${id}" name="content" rows="${parentId ? 3 : 4}" maxlength="${END_USER_COMMENT_MAX_LENGTH}" required${problem ? html` aria-invalid="true"` : ''}>${content}</textarea></div>
${guard || ''}
<button type="submit" class="button">${button}</button>
</form>`;
}

import { COMMENT_MAX_LENGTH, type Comment } from '@feedbackd/sdk/contract';
import { html, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { commentThread } from '../../kit/views/thread.js';
import { teamPaths } from '../layout.js';

/*
 * The team's side of an item's conversation (docs/triage.md, "Conversation"): the thread as the
 * board draws it (kit/views/thread.ts), with the team's internal notes in it, each marked in words
 * as private; a Reply under each top-level comment, and Pin/Unpin on the team's visible comments
 * (the board's official answer). Every control is a form that posts and comes back.
 */

/** A refused thread reply, shown again open and filled. */
export interface RefusedReply {
  parentId: string;
  reply: string;
}

export function teamConversation(itemId: string, comments: readonly Comment[], when: (iso: string) => SafeHtml, i18n: I18n, refused?: RefusedReply): SafeHtml {
  const { t } = i18n;
  return commentThread(comments, {
    when,
    i18n,
    mark: (comment) => comment.internal === true && html` <span class="internal-badge">${t('team.comments.internal')}</span>`,
    actions: (comment) => {
      const parts: SafeHtml[] = [];
      if (comment.author?.isTeam && !comment.internal) {
        parts.push(html`<form method="post" action="${teamPaths.itemCommentPin(itemId, comment.id)}" class="comment-pin">
<input type="hidden" name="pinned" value="${comment.isPinned ? 'false' : 'true'}">
<button type="submit" class="link-button">${comment.isPinned ? t('team.comments.unpin') : t('team.comments.pin')}</button>
</form>`);
      }
      if (!comment.parentId) {
        const typed = refused?.parentId === comment.id ? refused.reply : undefined;
        const id = `reply-${comment.id}`;
        parts.push(html`<details class="comment-reply"${typed !== undefined ? html` open` : ''}><summary>${t('comments.reply')}</summary>
<form method="post" action="${teamPaths.itemComment(itemId)}" class="comment-form" novalidate>
<input type="hidden" name="parentId" value="${comment.id}">
<div class="field"><label for="${id}">${comment.internal ? t('team.item.internal') : t('team.comments.replyLabel')}</label>
<textarea id="${id}" name="reply" rows="3" maxlength="${COMMENT_MAX_LENGTH}"${typed !== undefined ? html` aria-invalid="true"` : ''}>${typed ?? ''}</textarea></div>
<button type="submit" class="button">${t('team.comments.send')}</button>
</form>
</details>`);
      }
      return parts.length > 0 && html`<div class="comment-actions">${parts}</div>`;
    },
  });
}

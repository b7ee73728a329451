import type { Comment } from '@feedbackd/sdk/contract';
import { html, isolated, type SafeHtml } from '../html.js';
import { ENGLISH, type I18n } from '../i18n.js';
import { avatar } from './people.js';

/*
 * An item's conversation as the board and the team's pages show it (docs/board.md,
 * "Conversation"): the pinned answer first and marked, then the top-level comments oldest first,
 * each with its replies (one level) under it; each author's name beside a circle of their
 * initials, the team's marked. What each area may do with a comment (reply, edit, pin) it adds
 * itself through `actions`; the markup is one, so a script can add a comment as the server would.
 */

export interface ThreadOptions {
  /** A comment's date as the page writes it. */
  when: (iso: string) => SafeHtml;
  i18n?: I18n | undefined;
  /** The area's controls after a comment (its forms), or nothing. */
  actions?: ((comment: Comment, replies: readonly Comment[]) => SafeHtml | false) | undefined;
  /** A mark of the area's beside the author (the team's "private note"), or nothing. */
  mark?: ((comment: Comment) => SafeHtml | false) | undefined;
}

/** The comments in their threads: the top-level ones in the API's order (pinned first), each with its replies. */
export function threads(comments: readonly Comment[]): { comment: Comment; replies: Comment[] }[] {
  const tops = comments.filter((c) => !c.parentId || c.isPinned || !comments.some((p) => p.id === c.parentId));
  const shown = new Set(tops.map((c) => c.id));
  return tops.map((comment) => ({ comment, replies: comments.filter((c) => c.parentId === comment.id && !shown.has(c.id)) }));
}

/** The conversation's section, its heading counting the comments shown. */
export function commentThread(comments: readonly Comment[], options: ThreadOptions): SafeHtml {
  const i18n = options.i18n ?? ENGLISH;
  const { t } = i18n;
  return html`<section aria-labelledby="comments-title" class="conversation">
<h2 id="comments-title">${t('count.comment', { count: comments.length })}</h2>
${comments.length === 0 && html`<p class="empty" data-no-comments>${t('comments.none')}</p>`}
<ol class="comments" data-comments>${threads(comments).map(({ comment, replies }) => commentItem(comment, replies, options))}</ol>
</section>`;
}

/** One comment (and, for a top-level one, its replies): the element the board's script adds in place too. */
export function commentItem(comment: Comment, replies: readonly Comment[], options: ThreadOptions): SafeHtml {
  const i18n = options.i18n ?? ENGLISH;
  const { t } = i18n;
  const team = comment.author?.isTeam === true;
  const name = comment.author?.name;
  const classes = ['comment', team && 'team', comment.isPinned && 'pinned', comment.internal && 'internal'].filter(Boolean).join(' ');
  const top = !comment.parentId || comment.isPinned;
  return html`<li class="${classes}" id="comment-${comment.id}">
${comment.isPinned ? html`<p class="pinned-badge">${t('comments.pinned')}</p>` : ''}
<p class="comment-head">${avatar(name)}<strong>${name ? isolated(name) : t('person.anonymous')}</strong>${team ? html` <span class="team-badge">${t('comments.team')}</span>` : ''}${options.mark?.(comment) || ''} <span class="hint">${options.when(comment.createdAt)}${comment.editedAt ? html` · ${t('comments.edited')}` : ''}</span></p>
<p class="comment-text">${isolated(comment.content)}</p>
${options.actions?.(comment, replies) || ''}
${top ? html`<ol class="replies" data-replies="${comment.id}">${replies.map((reply) => commentItem(reply, [], options))}</ol>` : ''}
</li>`;
}

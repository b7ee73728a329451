import { expect } from 'chai';
import type { Comment } from '@feedbackd/sdk/contract';
import { conversation, ENGLISH, html, teamConversation, threads, unsignedGuard } from '@feedbackd/server/testing';

/** The conversation's views (kit/views/thread.ts, board and team comment-parts.ts), rendered without a server. */

const at = (minute: number) => `2026-05-04T04:${String(minute).padStart(2, '0')}:00.000Z`;
const user = (id: string, content: string, minute: number, parentId: string | null = null, externalId = 'ann'): Comment => ({ id, content, createdAt: at(minute), author: { name: 'Ann Lee', avatarUrl: null, id: externalId }, parentId, editedAt: null, isPinned: false });
const team = (id: string, content: string, minute: number, extra: Partial<Comment> = {}): Comment => ({ id, content, createdAt: at(minute), author: { name: 'Acme team', isTeam: true }, parentId: null, editedAt: null, isPinned: false, ...extra });
const when = (iso: string) => html`<time datetime="${iso}">${iso}</time>`;
const board = (comments: Comment[], visitor = { endUserId: 'u1', externalId: 'ann', name: 'Ann Lee' }, anonymousComments = false) =>
  conversation({ slug: 'acme', itemId: 'i1', comments, visitor, anonymousComments, guard: unsignedGuard(), when, i18n: ENGLISH }).text;

describe('comment threads', () => {
  it('when a team reply is pinned, then it comes first as a thread of its own and is not repeated under its comment', () => {
    const comments = [team('t1', 'Official', 3, { parentId: 'c1', isPinned: true }), user('c1', 'Question', 1), user('c2', 'Detail', 2, 'c1')];
    expect(threads(comments).map(({ comment, replies }) => [comment.id, replies.map((r) => r.id)])).to.deep.equal([
      ['t1', []],
      ['c1', ['c2']],
    ]);
  });

  it('when the team has replied in a thread, then the visitor\'s comments before the reply offer no Edit or Delete, and a later one still does', () => {
    const text = board([user('c1', 'Question', 1), team('t1', 'Answer', 2, { parentId: 'c1' }), user('c2', 'Thanks', 3, 'c1')]);
    expect(text).not.to.include('/comments/c1/edit');
    expect(text).to.include('/comments/c2/edit');
    expect(text).to.include('/comments/c2/delete');
  });

  it('when a visitor reads another person\'s comment, then they may reply to it but not change it', () => {
    const text = board([user('c1', 'Question', 1, null, 'bob')]);
    expect(text).not.to.include('/comments/c1/edit');
    expect(text).to.include('<input type="hidden" name="parentId" value="c1">');
  });

  it('when an anonymous visitor reads a board without anonymous comments, then there is no form, no Reply, and the page says to sign in through the app', () => {
    const text = conversation({ slug: 'acme', itemId: 'i1', comments: [user('c1', 'Question', 1)], visitor: undefined, anonymousComments: false, guard: unsignedGuard(), when, i18n: ENGLISH }).text;
    expect(text).not.to.include('<form');
    expect(text).to.include('open this board from the app you use, signed in');
  });

  it('when the team reads its item, then an internal note is marked private, and only the team\'s visible comments can be pinned', () => {
    const text = teamConversation('i1', [user('c1', 'Question', 1), team('t1', 'Answer', 2), team('n1', 'Private', 3, { internal: true })], when, ENGLISH).text;
    expect(text).to.match(/<li class="comment team internal" id="comment-n1">[\s\S]*<span class="internal-badge">Private note: only the team sees it<\/span>/);
    expect(text).to.include('/team/items/i1/comments/t1/pin');
    expect(text).not.to.include('/comments/n1/pin');
    expect(text).not.to.include('/comments/c1/pin');
    expect((text.match(/<summary>Reply<\/summary>/g) ?? []).length, 'a Reply under each top-level comment').to.equal(3);
  });
});

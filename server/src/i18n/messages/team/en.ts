/**
 * The team's pages (web/team/): the inbox, an item as the team sees it, merge and delete, their
 * notices and the team's own form messages. Kept beside the catalogue's other messages (each
 * locale's file spreads its team part in), in a file of their own so that the team's words are
 * read and translated together. English is the source: the other locales' team parts are typed
 * against these keys.
 */
export const teamEn = {
  // The inbox (web/team/views/inbox-page.ts).
  'team.inbox.title': 'Inbox',
  'team.inbox.titleWithErrors': 'Error: Inbox',
  'team.inbox.summaryStatus': '{count, plural, one {# item} other {# items}} with status {status}',
  'team.inbox.summarySearch': '{count, plural, one {# item} other {# items}} matching “{search}”',
  'team.inbox.summaryStatusSearch': '{count, plural, one {# item} other {# items}} with status {status} matching “{search}”',
  'team.inbox.either': '{status} or {other}',
  'team.inbox.empty': 'Nothing to triage here.',
  'team.inbox.select': 'Select “{title}”',

  // The inbox's tabs, bulk bar and banner (web/team/views/inbox-parts.ts).
  'team.tabs.label': 'Statuses',
  'team.tabs.all': 'All',
  'team.bulk.legend': 'Change the selected items',
  'team.bulk.selectAll': 'Select all on this page',
  'team.bulk.selected': '{count, plural, one {# item selected} other {# items selected}}',
  'team.bulk.newStatus': 'New status',
  'team.bulk.submit': 'Change status',
  'team.banner.undo': 'Undo',
  'team.banner.dismiss': 'Dismiss',

  // What a change did, said once above the inbox (web/team/inbox-notices.ts).
  'team.notice.deleted': 'The item was deleted.',
  'team.notice.moved': '{count, plural, one {# item moved to {status}.} other {# items moved to {status}.}}',
  'team.notice.missing': '{count, plural, one {# item could not be found (deleted or merged meanwhile).} other {# items could not be found (deleted or merged meanwhile).}}',
  'team.notice.restored': '{count, plural, one {# item is back at the status it had before.} other {# items are back at the status they had before.}}',
  'team.notice.kept': '{count, plural, one {# item was changed since, and was left as it is.} other {# items were changed since, and were left as they are.}}',

  // The team's own form messages (web/team/team-problems.ts).
  'team.problem.selectItems': 'Select at least one item, then choose Change status',
  'team.problem.tooMany': 'Change at most {count, plural, one {# item} other {# items}} at once',
  'team.problem.status': 'Choose one of the statuses',
  'team.problem.undoGone': 'That change can no longer be undone here (it is more than 10 minutes old, or was made in another session). Change the items back with the form.',
  'team.problem.mergeInto': 'Choose the item to merge this one into',
  'team.problem.mergeOther': 'Choose another item than this one',
  'team.problem.replyGone': 'The comment you replied to is no longer there: your reply is below, to post on the item.',
  'team.problem.enterKey': 'Enter a secret key',
  'team.problem.publicKey': 'That is a public key (pk_): the team pages need a secret key (sk_)',
  'team.problem.wrongKey': 'That key is not a secret key of this server, or it has been revoked',

  // An item as the team sees it (web/team/views/item-page.ts).
  'team.item.titleWithErrors': 'Error: {title}',
  'team.item.back': 'Back to the inbox',
  'team.item.onBoard': 'See it on the public board',
  'team.item.votesPosted': '{count, plural, one {# vote} other {# votes}} · posted on {date}',
  'team.item.noDescription': 'No description.',
  'team.item.side': 'Triage',
  'team.item.statusTitle': 'Change the status',
  'team.item.status': 'Status',
  'team.item.notifies': 'Saving a new status tells {count, plural, =0 {no subscriber} one {# subscriber} other {# subscribers}}.',
  'team.item.comment': 'Comment as the team (optional)',
  'team.item.commentHint': 'Posted with the change, in the same step, and shown on the public board.',
  'team.item.saveStatus': 'Save status',
  'team.item.replyTitle': 'Reply as the team',
  'team.item.reply': 'Reply',
  'team.item.postReply': 'Post reply',
  'team.item.saved': 'Saved: the status is {status}.',
  'team.item.replied': 'Your reply is posted.',
  'team.item.merged': 'Merged: the duplicate’s votes and comments are now on this item, and the duplicate is deleted.',

  // The side column's people (web/team/views/people-parts.ts).
  'team.submitter.title': 'Submitter',
  'team.submitter.externalId': 'External ID',
  'team.submitter.email': 'Email',
  'team.submitter.noEmail': 'Not given',
  'team.submitter.none': 'Posted without an end user: there is nobody to contact.',
  'team.voters.title': 'Voters',
  'team.voters.none': 'No identified person has voted.',
  'team.voters.nonePage': 'There are no voters on this page.',
  'team.voters.externalId': 'External ID:',
  'team.voters.email': 'Email:',
  'team.voters.votedOn': 'Voted on {date}',

  // Merge and delete (web/team/views/remove-parts.ts).
  'team.merge.title': 'Merge into another item',
  'team.merge.hint': 'For a duplicate: its votes and comments move to the item you choose (a voter of both counts once), and this item is deleted.',
  'team.merge.find': 'Find the item to merge into',
  'team.merge.findButton': 'Find',
  'team.merge.noMatch': 'No other item matches “{search}”.',
  'team.merge.noSimilar': 'No item has a title like this one. Search for the one to merge into.',
  'team.merge.matching': 'Items matching “{search}”',
  'team.merge.similar': 'Items with a title like this one',
  'team.merge.candidate': '({status}, {count, plural, one {# vote} other {# votes}}, {comments, plural, one {# comment} other {# comments}})',
  'team.merge.submit': 'Merge this item into the chosen one',
  'team.delete.title': 'Delete',
  'team.delete.link': 'Delete this item…',
  'team.delete.heading': 'Delete “{title}”?',
  'team.delete.pageTitle': 'Delete {title}?',
  'team.delete.what': 'Its {count, plural, one {# vote} other {# votes}}, {comments, plural, one {# comment} other {# comments}} and status history are deleted with it. This cannot be undone. To keep its votes, merge it into another item instead.',
  'team.delete.confirm': 'Delete for good',
  'team.delete.cancel': 'Cancel, keep it',

  // The sign-in page's notices (web/team/sign-in.ts). A refusal's reason stays the server's own
  // English (kit/views/refusal.ts marks it so).
  'team.signIn.signedOut': 'You have signed out.',
  'team.signIn.ended': 'Your session has ended (signed out elsewhere, idle for too long, or its key was revoked). Sign in again.',

  // The team's conversation controls (web/team/views/comment-parts.ts).
  'team.comments.internal': 'Private note: only the team sees it',
  'team.comments.pin': 'Pin as the official answer',
  'team.comments.unpin': 'Unpin',
  'team.comments.replyLabel': 'Reply as the team',
  'team.comments.send': 'Send reply',
  'team.item.internal': 'Internal note: only the team sees it, never the board or the public API',
  'team.item.noted': 'Your internal note is saved. Only the team sees it.',
  'team.item.pinned': 'Pinned: the board shows it first, as the official answer.',
  'team.item.unpinned': 'Unpinned.',
  // The Held view (web/team/held.ts, docs/moderation.md).
  'team.held.tab': 'Held',
  'team.held.title': 'Held for approval',
  'team.held.intro': 'End users’ posts that wait for the team: nobody else sees them until they are approved.',
  'team.held.empty': 'Nothing is waiting for approval.',
  'team.held.legend': 'Decide on the selected posts',
  'team.held.approve': 'Approve',
  'team.held.reject': 'Reject',
  'team.held.block': 'When rejecting, also block their authors from posting',
  'team.held.submission': 'Submission',
  'team.held.comment': 'Comment',
  'team.held.edit': 'Edit of a comment',
  'team.held.reason': '{reason, select, anonymous {Anonymous post} all {Every post is held} other {Contains a link}}',
  'team.held.anonymous': 'Anonymous',
  'team.held.count': '{count, plural, one {# post} other {# posts}}',
  'team.held.approved': '{count, plural, one {# post approved.} other {# posts approved.}}',
  'team.held.rejected': '{count, plural, one {# post rejected.} other {# posts rejected.}}',
  'team.held.blocked': '{count, plural, one {# author blocked.} other {# authors blocked.}}',
  'team.held.selectRequired': 'Select at least one post.',
  'team.held.blockFor': 'Block for',
  'team.held.blockDefault': 'End users until lifted, addresses {days, plural, one {# day} other {# days}}',
  'team.held.blockDays': '{count, plural, one {# day} other {# days}}',
  'team.held.blocksTitle': 'Blocked authors',
  'team.held.blocksIntro': 'They cannot submit or comment until their block ends or is lifted. An end user is blocked as who they are; an anonymous author by their address, which others may share, so such a block ends after {days, plural, one {# day} other {# days}} unless another length was chosen.',
  'team.held.blocksEmpty': 'No author is blocked.',
  'team.held.address': 'An anonymous address',
  'team.held.scope': '{scope, select, endUser {End user} other {Address}}',
  'team.held.blockedOn': 'Blocked on {date}',
  'team.held.until': 'until {date}',
  'team.held.untilLifted': 'until lifted',
  'team.held.unblock': 'Unblock',
  'team.held.unblockWho': 'Unblock {who}',
  'team.held.unblocked': '{count, plural, =0 {That block was lifted already, or has ended.} one {# author unblocked: they may post again.} other {# authors unblocked: they may post again.}}',
  'team.shortcuts.approve': 'Held: approve the selected posts (or the current one)',
  'team.shortcuts.reject': 'Held: reject the selected posts (or the current one)',
} as const;

/** A locale's team messages: every key of English's, and no other. */
export type TeamCatalogue = { readonly [K in keyof typeof teamEn]: string };

import { teamEn } from './team/en.js';
import { widgetEn } from './widget/en.js';

/**
 * The source of every text of the board and the team's pages, in ICU MessageFormat
 * (intl-messageformat): plurals and dates are the message's own (`{count, plural, ...}`,
 * `{when, date, medium}`), never glued together in code. Each message is a whole sentence or
 * label, so a translator sees it whole. A value in braces is filled in by the view: text people
 * wrote, a number, a date, or a piece of markup (a link, a <kbd>).
 *
 * English pages are written in ASCII (web/kit/i18n.ts turns any other character of a message into
 * a character reference), so typographic characters may be used here freely.
 */
export const en = {
  // The frame of every page (web/kit/layout.ts).
  'frame.skipLink': 'Skip to main content',
  'frame.language': 'Language',
  'frame.changeLanguage': 'Change language',

  // The board's frame (web/board/layout.ts).
  'board.pageTitle': '{title} – {project}',
  'board.brand': 'Feedback',
  'board.footer': 'Feedback board',
  'board.defaultDescription': 'Share feedback on {project}, vote on ideas and follow the roadmap.',
  'board.navLabel': 'Board',
  'board.nav.feedback': 'Feedback',
  'board.nav.roadmap': 'Roadmap',
  'board.nav.changelog': 'Changelog',
  'board.nav.submit': 'Give feedback',
  'board.signedInAs': 'Signed in as {name}',
  'board.signOut': 'Sign out',

  // The board's refusal page (web/board/views/error-page.ts).
  'board.error.backSignedOut': 'Go to the board without signing in',
  'board.error.back': 'Go to the board',
  'board.error.startPage': 'Go to the start page',

  // The team's frame (web/team/layout.ts).
  'team.pageTitle': '{title} – {project} – Team',
  'team.pageTitleSignedOut': '{title} – Team',
  'team.brand': '{project} · Team',
  'team.brandSignedOut': 'Feedback · Team',
  'team.footer': 'Feedback triage',
  'team.shortcutsHint': 'Press {key} for keyboard shortcuts',
  'team.navLabel': 'Team',
  'team.nav.inbox': 'Inbox',
  'team.nav.board': 'Public board',
  'team.signOut': 'Sign out',
  'team.shortcuts.title': 'Keyboard shortcuts',
  'team.shortcuts.next': 'Next item in the inbox',
  'team.shortcuts.previous': 'Previous item in the inbox',
  'team.shortcuts.select': 'Select or unselect the current item',
  'team.shortcuts.status': 'Change the status (of the selected items, or of this item)',
  'team.shortcuts.reply': 'Reply as the team',
  'team.shortcuts.merge': 'Merge into another item',
  'team.shortcuts.open': 'Open the current item',
  'team.shortcuts.help': 'Show these shortcuts',
  'team.shortcuts.when': 'They work when no field has the focus.',
  'team.shortcuts.close': 'Close',
  'team.shortcuts.key': 'Key',
  'team.shortcuts.does': 'What it does',
  'team.error.notSignedIn': 'You are not signed in',
  'team.error.inbox': 'Go to the inbox',
  'team.error.signIn': 'Sign in',

  // The team's sign-in page (web/team/views/sign-in-page.ts).
  'team.signIn.title': 'Sign in',
  'team.signIn.titleWithErrors': 'Error: Sign in',
  'team.signIn.heading': 'Sign in to triage',
  'team.signIn.quickest': "The quickest way in is a one-time link from the server's command line:",
  'team.signIn.command': 'feedback open --name "Your name"',
  'team.signIn.linkHint': 'It prints a link that works once, for 10 minutes, and opens it in your browser. With a secret key instead of the database: {command}.',
  'team.signIn.withKey': 'Or sign in with a secret key',
  'team.signIn.key': 'Secret key',
  'team.signIn.keyHint': 'A key that starts with sk_, from feedback keys create --secret. It is used once to sign you in and never shown again.',
  'team.signIn.name': 'Your name (optional)',
  'team.signIn.nameHint': 'Shown with your replies and in the status history.',
  'team.signIn.submit': 'Sign in',

  // The team's pages (messages/team/en.ts).
  ...teamEn,
  ...widgetEn,

  // Refusals, on the board and the team's pages (web/kit/views/refusal.ts).
  'refusal.400': 'Something in the request is not right',
  'refusal.401': 'Not signed in',
  'refusal.403': 'This form cannot be sent from there',
  'refusal.404': 'Page not found',
  'refusal.405': 'Not allowed',
  'refusal.410': 'This sign-in link no longer works',
  'refusal.413': 'That was too much text',
  'refusal.415': 'Something in the request is not right',
  'refusal.421': 'This page is at another address',
  'refusal.429': 'Too many requests',
  'refusal.503': 'Sorry, the service is unavailable',
  'refusal.other': 'Sorry, something went wrong',
  'refusal.waitAndRetry': 'Wait a minute, then try again.',

  // A form's field (web/kit/views/fields.ts).
  'field.errorPrefix': 'Error:',

  // Shared by the lists and the item pages (web/kit/views/).
  'item.votes': '{count, plural, one {# vote} other {# votes}}',
  'item.postedOn': 'Posted on {when, date, medium}',

  // Statuses and types, as a tag, an option or a sentence shows them (web/kit/views/parts.ts, label).
  'status.new': 'New',
  'status.under-review': 'Under review',
  'status.planned': 'Planned',
  'status.in-progress': 'In progress',
  'status.completed': 'Completed',
  'status.closed': 'Closed',
  'type.bug': 'Bug',
  'type.idea': 'Idea',
  'type.question': 'Question',
  'type.other': 'Other',

  // Counts (web/kit/views/parts.ts, count).
  'count.item': '{count, plural, one {# item} other {# items}}',
  'count.comment': '{count, plural, one {# comment} other {# comments}}',
  'count.identifiedVoter': '{count, plural, one {# identified voter} other {# identified voters}}',
  'count.anonymousVote': '{count, plural, one {# anonymous vote} other {# anonymous votes}}',
  'count.subscriber': '{count, plural, one {# subscriber} other {# subscribers}}',

  // The vote button (web/kit/views/parts.ts): the word under the number, and what a screen reader adds.
  'vote.label': '{count, plural, one {vote} other {votes}}',
  'vote.for': '– vote for “{title}”',

  // An item's facts, an error summary (web/kit/views/parts.ts).
  'meta.status': 'Status:',
  'meta.type': 'Type:',
  'errors.title': 'There is a problem',

  // The filter form and the pages of a list (web/kit/views/list-parts.ts).
  'filters.label': 'Filter and sort',
  'filters.search': 'Search',
  'filters.status': 'Status',
  'filters.type': 'Type',
  'filters.sortBy': 'Sort by',
  'filters.any': 'Any',
  'filters.apply': 'Apply',
  'sort.newest': 'Newest',
  'sort.oldest': 'Oldest',
  'sort.votes': 'Most votes',
  'sort.comments': 'Most comments',
  'pages.label': 'Pages',
  'pages.previous': 'Previous',
  'pages.next': 'Next',
  'pages.page': 'Page {page}',

  // An item's comments, people and dates (web/kit/views/list-parts.ts, people.ts).
  'comments.none': 'No comments yet.',
  'comments.team': 'Team',
  // The conversation on the board (web/board/views/comment-parts.ts) and the forms' spam guard (web/kit/form-guard.ts).
  'comments.pinned': 'Official answer',
  'comments.edited': 'edited',
  'comments.reply': 'Reply',
  'comments.replyLabel': 'Your reply',
  'comments.postReply': 'Post reply',
  'comments.edit': 'Edit',
  'comments.editLabel': 'Your comment',
  'comments.save': 'Save',
  'comments.delete': 'Delete',
  'comments.formTitle': 'Add a comment',
  'comments.formLabel': 'Your comment',
  'comments.post': 'Post comment',
  'comments.signInToComment': 'To comment, open this board from the app you use, signed in.',
  'comments.held': 'Thank you: your comment waits for the team’s approval, and appears here once approved.',
  'comments.editHeld': 'Thank you: your edit waits for the team’s approval. Until then the comment reads as before.',
  'comments.problem.limit': 'Too many comments from your address in a short time. Try again in {seconds, plural, one {# second} other {# seconds}}; your text is kept below.',
  'comments.problem.empty': 'Write a comment first.',
  'comments.problem.tooLong': 'A comment can be at most {max, number} characters.',
  'comments.problem.answered': 'The team has replied to this comment: it can no longer be edited or deleted.',
  'comments.problem.notAuthor': 'Only the author of this comment can change it.',
  'comments.problem.parent': 'The comment you replied to is no longer here.',
  'form.trap': 'Leave this field empty',
  'form.problem.honeypot': 'Your post was not sent: a field that must stay empty was filled in (a browser’s autofill can do this). Check your text and send it again.',
  'form.problem.tooFast': 'That was sent faster than a person types. Check your text and send it again.',
  'form.problem.stale': 'This form was open too long to be sent. Check your text and send it again.',
  'form.problem.spent': 'This form was sent already. Check your text and send it again.',
  'person.anonymous': 'Anonymous',
  // A day alone, as the language writes a medium date (in UTC: kit/views/list-parts.ts, date).
  'date.day': '{when, date, medium}',
  'date.dateTime': '{date}, {time} UTC',

  // An item's status history (web/kit/views/timeline.ts): whole sentences, never an arrow.
  'timeline.title': 'Status history',
  'timeline.posted': 'Posted as {status}',
  'timeline.moved': 'Moved from {from} to {to}',
  'timeline.movedBy': 'Moved from {from} to {to} by {actor}',
  'timeline.movedWithKey': 'Moved from {from} to {to} with an API key',
  'timeline.unchanged': 'The status has not changed since the item was posted.',

  // The contract's messages about the board's forms (web/kit/contract-messages.ts): in English the API's
  // exact words; a page shows them through these keys, so another language says them in its own.
  'contract.titleRequired': 'Title is required',
  'contract.postingBlocked': 'You can no longer post to this project: the team blocked this author',
  'contract.titleNotText': 'Title must be a string',
  'contract.titleTooLong': 'Title must be at most {max} characters',
  'contract.descriptionNotText': 'Description must be a string',
  'contract.descriptionTooLong': 'Description must be at most {max} characters',
  'contract.typeChoice': 'Type must be one of: {choices}',
  'contract.statusChoice': 'Status must be one of: {choices}',
  'contract.sortChoice': 'sortBy must be one of: {choices}',
  'contract.statusNotText': 'status must be a string',
  'contract.typeNotText': 'type must be a string',
  'contract.statusEmptyEntry': 'status has an empty entry: separate values with one comma, and none at either end',
  'contract.typeEmptyEntry': 'type has an empty entry: separate values with one comma, and none at either end',
  'contract.searchNotText': 'search must be a single string',
  'contract.searchTooLong': 'search must be at most {max} characters',
  'contract.pageNumber': 'page must be an integer between {min} and {max}',
  'contract.limitNumber': 'limit must be an integer between {min} and {max}',
  'contract.nul': '{field} must not contain NUL characters',
  'contract.surrogate': '{field} must be valid Unicode (it contains a lone surrogate)',

  // The board's list (web/board/views/board-page.ts).
  'board.list.heading': 'Feedback',
  'board.list.summary': '{count, plural, one {# item} other {# items}}',
  'board.list.summarySearch': '{count, plural, one {# item matching “{search}”} other {# items matching “{search}”}}',
  'board.empty.pastEnd': 'This page is past the end of the list. {link}.',
  'board.empty.firstPage': 'Go to the first page',
  'board.empty.search': 'No feedback matches “{search}”. {link}.',
  'board.empty.clearSearch': 'Clear the search and filters',
  'board.empty.filters': 'No feedback matches these filters. {link}.',
  'board.empty.clearFilters': 'Clear the filters',
  'board.empty.nothing': 'Nothing here yet. {link}.',

  // An item's page on the board (web/board/views/item-page.ts).
  'board.item.back': 'Back to all feedback',
  'board.item.noDescription': 'No description.',
  'board.subscribe.button': 'Subscribe',
  'board.unsubscribe.button': 'Unsubscribe',
  'board.subscribe.hint': 'Get an update when this item changes.',
  'board.subscribed.hint': 'You will get an update when this item changes.',

  // The submit form (web/board/views/submit-page.ts), and its similar items (also board.js's, through /b/:slug/similar).
  'board.submit.title': 'Give feedback',
  'board.submit.titleWithErrors': 'Error: Give feedback',
  'board.submit.titleField': 'Title',
  'board.submit.titleHint': 'A short summary, up to {max, number} characters.',
  'board.submit.description': 'Description (optional)',
  'board.submit.type': 'Type',
  'board.submit.send': 'Send feedback',
  'board.submit.lookFirst': 'Look for similar feedback first',
  'board.submit.held': 'Thank you. Your feedback will appear on the board once the team has approved it.',
  'board.similar.noTitle': 'Type a title first: similar feedback is looked for by its title.',
  'board.similar.none': 'Nothing like it yet: go ahead and send it.',
  'board.similar.heading': 'Already asked? Vote for it instead',
  'roadmap.heading': 'Roadmap',
  'roadmap.empty': 'Nothing yet.',
  'roadmap.showAll': 'Show all {count, number} in this column',
  'roadmap.back': 'Back to the roadmap',
  'roadmap.columnSummary': '{count, plural, one {# item, most votes first} other {# items, most votes first}}',
  'roadmap.columnTitle': 'Roadmap: {status}',
  'changelog.heading': 'Changelog',
  'changelog.empty': 'Nothing published yet.',
  'changelog.feed': 'Atom feed of the changelog',
  'changelog.feedTitle': '{project}: changelog',
  'changelog.items': 'What shipped',
  'changelog.shippedIn': 'Shipped in {entries}',

  // The one-click unsubscribe page (web/board/unsubscribe.ts) and the notifications' mail (delivery/mail/mail-message.ts).
  'unsubscribe.title': 'Unsubscribe',
  'unsubscribe.askItem': 'Stop the emails about “{title}”?',
  'unsubscribe.askProject': 'Stop every email from {project}?',
  'unsubscribe.confirm': 'Unsubscribe',
  'unsubscribe.doneItem': 'Done: you will get no more emails about “{title}”.',
  'unsubscribe.doneProject': 'Done: you will get no more emails from {project}.',
  'unsubscribe.invalid': 'This unsubscribe link is not valid: it may have been copied only in part.',
  'unsubscribe.expired': 'This unsubscribe link has expired. The link in a newer email works.',
  'mail.subjectOne': '{project}: news about “{title}”',
  'mail.subjectMany': '{project}: {count, plural, one {# update} other {# updates}} on what you follow',
  'mail.statusChanged': '“{title}” moved from {from} to {to}.',
  'mail.teamReply': 'The team replied to “{title}”:',
  'mail.merged': '“{source}” was merged into “{title}”, which you now follow.',
  'mail.shipped': 'Shipped: {entry}',
  'mail.view': 'See it on the board',
  'mail.why': 'You get this email because you follow requests on {project}.',
  'mail.unsubscribeItem': 'Stop the emails about this request',
  'mail.unsubscribeAll': 'Stop every email from {project}',
} as const;

/** A message's name. */
export type MessageKey = keyof typeof en;

/** A locale's messages: every key of English's, and no other (a missing or extra key does not compile). */
export type Catalogue = { readonly [K in MessageKey]: string };

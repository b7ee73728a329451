/**
 * The widget's panel (web/widget/, docs/widget.md), in ICU MessageFormat as ../en.ts. The panel
 * also uses the board's messages for what it shares with the board (the submit form's fields, the
 * similar items, votes, statuses, the changelog's heading).
 */
export const widgetEn = {
  'widget.title': 'Feedback for {project}',
  'widget.tabs': 'Sections',
  'widget.tab.feedback': 'Give feedback',
  'widget.tab.board': 'Board',
  'widget.tab.changes': 'What’s new',
  'widget.tab.mine': 'My requests',
  'widget.close': 'Close',
  'widget.sent': 'Thank you: your feedback was sent.',
  'widget.board.empty': 'No feedback yet: be the first to give some.',
  'widget.mine.signedOut': 'Sign in to the app to follow your requests here.',
  'widget.mine.empty': 'You have not sent or voted for anything yet.',
  'widget.mine.submitted': 'You sent this',
  'widget.mine.voted': 'You vote for this',
  'widget.mine.unreadStatus': 'New: now {status}',
  'widget.mine.unreadReply': 'New: the team replied',
  'widget.mine.unreadSummary': '{count, plural, one {# update since your last visit} other {# updates since your last visit}}',
  'widget.signedInAs': 'Signed in as {name}',
} as const;

export type WidgetKey = keyof typeof widgetEn;
/** A locale's widget messages: every key of English's, and no other. */
export type WidgetCatalogue = { readonly [K in WidgetKey]: string };

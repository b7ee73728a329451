import type { WidgetCatalogue } from './en.js';

/** German, the widget's panel (terms as in ../de.ts). */
export const widgetDe: WidgetCatalogue = {
  'widget.title': 'Feedback zu {project}',
  'widget.tabs': 'Bereiche',
  'widget.tab.feedback': 'Feedback geben',
  'widget.tab.board': 'Board',
  'widget.tab.changes': 'Neuigkeiten',
  'widget.tab.mine': 'Meine Anliegen',
  'widget.close': 'Schließen',
  'widget.sent': 'Danke: Ihr Feedback wurde gesendet.',
  'widget.board.empty': 'Noch kein Feedback: Geben Sie als Erste oder Erster welches.',
  'widget.mine.signedOut': 'Melden Sie sich in der App an, um Ihre Anliegen hier zu verfolgen.',
  'widget.mine.empty': 'Sie haben noch nichts gesendet und für nichts abgestimmt.',
  'widget.mine.submitted': 'Von Ihnen gesendet',
  'widget.mine.voted': 'Sie stimmen dafür',
  'widget.mine.unreadStatus': 'Neu: jetzt {status}',
  'widget.mine.unreadReply': 'Neu: Das Team hat geantwortet',
  'widget.mine.unreadSummary': '{count, plural, one {# Neuigkeit seit Ihrem letzten Besuch} other {# Neuigkeiten seit Ihrem letzten Besuch}}',
  'widget.signedInAs': 'Angemeldet als {name}',
};

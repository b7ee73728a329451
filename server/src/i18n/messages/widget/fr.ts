import type { WidgetCatalogue } from './en.js';

/** French, the widget's panel (terms as in ../fr.ts). */
export const widgetFr: WidgetCatalogue = {
  'widget.title': 'Vos avis sur {project}',
  'widget.tabs': 'Rubriques',
  'widget.tab.feedback': 'Donner un avis',
  'widget.tab.board': 'Tableau',
  'widget.tab.changes': 'Nouveautés',
  'widget.tab.mine': 'Mes demandes',
  'widget.close': 'Fermer',
  'widget.sent': 'Merci : votre avis a été envoyé.',
  'widget.board.empty': 'Aucun avis pour l’instant : soyez le premier à en donner un.',
  'widget.mine.signedOut': 'Connectez-vous à l’application pour suivre vos demandes ici.',
  'widget.mine.empty': 'Vous n’avez encore rien envoyé ni soutenu.',
  'widget.mine.submitted': 'Vous l’avez envoyé',
  'widget.mine.voted': 'Vous votez pour',
  'widget.mine.unreadStatus': 'Nouveau : désormais {status}',
  'widget.mine.unreadReply': 'Nouveau : l’équipe a répondu',
  'widget.mine.unreadSummary': '{count, plural, one {# nouveauté depuis votre dernière visite} other {# nouveautés depuis votre dernière visite}}',
  'widget.signedInAs': 'Connecté en tant que {name}',
};

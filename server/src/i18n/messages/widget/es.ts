import type { WidgetCatalogue } from './en.js';

/** Spanish, the widget's panel (terms as in ../es.ts). */
export const widgetEs: WidgetCatalogue = {
  'widget.title': 'Comentarios sobre {project}',
  'widget.tabs': 'Secciones',
  'widget.tab.feedback': 'Dar tu opinión',
  'widget.tab.board': 'Tablero',
  'widget.tab.changes': 'Novedades',
  'widget.tab.mine': 'Mis solicitudes',
  'widget.close': 'Cerrar',
  'widget.sent': 'Gracias: tu opinión se ha enviado.',
  'widget.board.empty': 'Aún no hay comentarios: sé el primero en opinar.',
  'widget.mine.signedOut': 'Inicia sesión en la aplicación para seguir tus solicitudes aquí.',
  'widget.mine.empty': 'Todavía no has enviado ni votado nada.',
  'widget.mine.submitted': 'Lo enviaste tú',
  'widget.mine.voted': 'Votas por esto',
  'widget.mine.unreadStatus': 'Nuevo: ahora {status}',
  'widget.mine.unreadReply': 'Nuevo: el equipo respondió',
  'widget.mine.unreadSummary': '{count, plural, one {# novedad desde tu última visita} other {# novedades desde tu última visita}}',
  'widget.signedInAs': 'Sesión iniciada como {name}',
};

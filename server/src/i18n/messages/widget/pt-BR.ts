import type { WidgetCatalogue } from './en.js';

/** Brazilian Portuguese, the widget's panel (terms as in ../pt-BR.ts). */
export const widgetPtBR: WidgetCatalogue = {
  'widget.title': 'Feedback sobre {project}',
  'widget.tabs': 'Seções',
  'widget.tab.feedback': 'Enviar feedback',
  'widget.tab.board': 'Quadro',
  'widget.tab.changes': 'Novidades',
  'widget.tab.mine': 'Meus pedidos',
  'widget.close': 'Fechar',
  'widget.sent': 'Obrigado: seu feedback foi enviado.',
  'widget.board.empty': 'Nenhum feedback ainda: seja o primeiro a enviar.',
  'widget.mine.signedOut': 'Entre no aplicativo para acompanhar seus pedidos aqui.',
  'widget.mine.empty': 'Você ainda não enviou nem votou em nada.',
  'widget.mine.submitted': 'Enviado por você',
  'widget.mine.voted': 'Você vota nisto',
  'widget.mine.unreadStatus': 'Novo: agora {status}',
  'widget.mine.unreadReply': 'Novo: a equipe respondeu',
  'widget.mine.unreadSummary': '{count, plural, one {# novidade desde sua última visita} other {# novidades desde sua última visita}}',
  'widget.signedInAs': 'Conectado como {name}',
};

import type { WidgetCatalogue } from './en.js';

/** Arabic, the widget's panel (terms as in ../ar.ts). */
export const widgetAr: WidgetCatalogue = {
  'widget.title': 'ملاحظات حول {project}',
  'widget.tabs': 'الأقسام',
  'widget.tab.feedback': 'أرسل ملاحظة',
  'widget.tab.board': 'اللوحة',
  'widget.tab.changes': 'الجديد',
  'widget.tab.mine': 'طلباتي',
  'widget.close': 'إغلاق',
  'widget.sent': 'شكرًا لك: أُرسلت ملاحظتك.',
  'widget.board.empty': 'لا ملاحظات بعد: كن أول من يرسل ملاحظة.',
  'widget.mine.signedOut': 'سجّل الدخول إلى التطبيق لمتابعة طلباتك هنا.',
  'widget.mine.empty': 'لم ترسل أي ملاحظة ولم تصوّت لأي شيء بعد.',
  'widget.mine.submitted': 'أرسلتَ هذا',
  'widget.mine.voted': 'صوّتَ لهذا',
  'widget.mine.unreadStatus': 'جديد: الحالة الآن {status}',
  'widget.mine.unreadReply': 'جديد: ردّ الفريق',
  'widget.mine.unreadSummary': '{count, plural, zero {لا تحديثات منذ زيارتك الأخيرة} one {تحديث واحد منذ زيارتك الأخيرة} two {تحديثان منذ زيارتك الأخيرة} few {# تحديثات منذ زيارتك الأخيرة} many {# تحديثًا منذ زيارتك الأخيرة} other {# تحديث منذ زيارتك الأخيرة}}',
  'widget.signedInAs': 'مسجّل الدخول باسم {name}',
};

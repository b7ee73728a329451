import type { WidgetCatalogue } from './en.js';

/** Japanese, the widget's panel (terms as in ../ja.ts). */
export const widgetJa: WidgetCatalogue = {
  'widget.title': '{project} へのフィードバック',
  'widget.tabs': 'セクション',
  'widget.tab.feedback': 'フィードバックを送る',
  'widget.tab.board': 'ボード',
  'widget.tab.changes': '新着情報',
  'widget.tab.mine': '自分のリクエスト',
  'widget.close': '閉じる',
  'widget.sent': 'ありがとうございます。フィードバックを送信しました。',
  'widget.board.empty': 'まだフィードバックはありません。最初の投稿をどうぞ。',
  'widget.mine.signedOut': 'アプリにサインインすると、ここで自分のリクエストを確認できます。',
  'widget.mine.empty': 'まだ送信や投票をしていません。',
  'widget.mine.submitted': 'あなたが送信',
  'widget.mine.voted': 'あなたが投票中',
  'widget.mine.unreadStatus': '新着：{status} になりました',
  'widget.mine.unreadReply': '新着：チームが返信しました',
  'widget.mine.unreadSummary': '{count, plural, other {前回の訪問以降の更新 # 件}}',
  'widget.signedInAs': '{name} としてサインイン中',
};

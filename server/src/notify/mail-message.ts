import type { FeedbackStatus } from '@feedbackd/sdk/contract';
import { isLocale, messagesFor, SOURCE_LOCALE, type MessageKey, type Messages } from '../i18n/index.js';
import type { ClaimedNotification } from './mail.sql.js';

/*
 * One recipient's message (docs/notifications.md): what changed, in the project's board language,
 * as plain text and as HTML, with a link to each item on the board and the unsubscribe links.
 * Everything anyone typed (titles, a reply) is escaped in the HTML part.
 */

/** A message ready for nodemailer. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe of every email of the project (List-Unsubscribe, RFC 8058). */
  unsubscribeUrl: string;
}

/** Where the links go: the board's origin, and the unsubscribe link of the project or of one item. */
export interface MailLinks {
  origin: string;
  unsubscribe(feedbackId: string | null): Promise<string>;
}

/** One line of the message: its sentence, maybe a quoted reply, and the item it links to. */
interface Line {
  sentence: string;
  quote?: string | undefined;
  /** The item the line is about (its own unsubscribe link), if one. */
  feedbackId: string | null;
  /** Where "see it on the board" goes: the item, or the changelog's entry. */
  url: string;
}

/** The message telling one recipient of `rows` (theirs, oldest first). */
export async function mailMessage(rows: readonly ClaimedNotification[], links: MailLinks): Promise<MailMessage> {
  const first = rows[0]!;
  const messages = messagesFor(isLocale(first.board_locale) ? first.board_locale : SOURCE_LOCALE);
  const t = (key: MessageKey, values?: Record<string, string | number>) => messages.t(key, values);
  const project = first.project_name;
  const board = `${links.origin}/b/${encodeURIComponent(first.project_slug)}`;
  const lines = rows.map((row) => lineOf(row, messages, board));
  const items = [...new Set(lines.map((line) => line.feedbackId).filter((id): id is string => id !== null))];
  const subject = rows.length === 1 ? t('mail.subjectOne', { project, title: titleOf(first) }) : t('mail.subjectMany', { project, count: rows.length });
  const unsubscribeUrl = await links.unsubscribe(null);
  // A message about one item offers to leave that item alone, as well as the whole project.
  const itemUnsubscribe = items.length === 1 ? await links.unsubscribe(items[0]!) : undefined;

  const text = [
    ...lines.flatMap((line) => [line.sentence, ...(line.quote ? [line.quote.replace(/^/gm, '> ')] : []), `${t('mail.view')}: ${line.url}`, '']),
    '-- ',
    t('mail.why', { project }),
    ...(itemUnsubscribe ? [`${t('mail.unsubscribeItem')}: ${itemUnsubscribe}`] : []),
    `${t('mail.unsubscribeAll', { project })}: ${unsubscribeUrl}`,
  ].join('\n');

  const dir = messages.dir;
  const html = `<!doctype html><html lang="${escape(messages.lang)}" dir="${dir}"><head><meta charset="utf-8"><title>${escape(subject)}</title></head><body>
${lines
  .map(
    (line) => `<p>${escape(line.sentence)}</p>
${line.quote ? `<blockquote>${escape(line.quote).replace(/\n/g, '<br>')}</blockquote>\n` : ''}<p><a href="${escape(line.url)}">${escape(t('mail.view'))}</a></p>\n`,
  )
  .join('')}<hr>
<p><small>${escape(t('mail.why', { project }))}<br>
${itemUnsubscribe ? `<a href="${escape(itemUnsubscribe)}">${escape(t('mail.unsubscribeItem'))}</a><br>\n` : ''}<a href="${escape(unsubscribeUrl)}">${escape(t('mail.unsubscribeAll', { project }))}</a></small></p>
</body></html>`;
  return { subject, text, html, unsubscribeUrl };
}

/** What the subject names for one notification: the item, or the changelog entry. */
function titleOf(row: ClaimedNotification): string {
  const data = row.data as { feedback?: { title: string }; entry?: { title: string } };
  return data.feedback?.title ?? data.entry?.title ?? '';
}

function lineOf(row: ClaimedNotification, messages: Messages, board: string): Line {
  const status = (value: FeedbackStatus) => messages.t(`status.${value}` as MessageKey);
  const data = row.data as {
    feedback?: { id: string; title: string };
    from?: FeedbackStatus;
    to?: FeedbackStatus;
    reply?: { content: string };
    source?: { title: string };
    entry?: { id: string; title: string };
  };
  const title = data.feedback?.title ?? '';
  const item = { feedbackId: row.feedback_id, url: `${board}/items/${row.feedback_id}` };
  switch (row.kind) {
    case 'status_changed':
      return { sentence: messages.t('mail.statusChanged', { title, from: status(data.from!), to: status(data.to!) }), ...item };
    case 'team_reply':
      return { sentence: messages.t('mail.teamReply', { title }), quote: data.reply?.content, ...item };
    case 'merged':
      return { sentence: messages.t('mail.merged', { title, source: data.source?.title ?? '' }), ...item };
    case 'shipped':
      return { sentence: messages.t('mail.shipped', { entry: data.entry?.title ?? '' }), feedbackId: null, url: `${board}/changelog#entry-${data.entry?.id ?? ''}` };
  }
}

/** HTML's five characters, for text in the HTML part. */
function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

import type { FeedbackStatus } from '@feedbackd/sdk/contract';
import { boardPaths } from '../../board-paths.js';
import { escapeHtmlNumeric as escape } from '../../html-escape.js';
import { isLocale, messagesFor, SOURCE_LOCALE, type MessageKey, type Messages } from '../../i18n/index.js';
import type { ClaimedNotification } from './mail.sql.js';

/*
 * One recipient's message (docs/notifications.md): what changed, in the project's board language,
 * as plain text and as HTML, with a link to each item on the board and the unsubscribe links.
 * Everything anyone typed (titles, the project's name, a reply) is text of its own in both parts:
 * - one line where it sits in a sentence or the subject (oneLine: a title's line break can no
 *   longer start a line of its own, such as a forged "See it on the board: https://evil…"), and
 *   every line of a quoted reply starts with "> ", whatever line break it was written with;
 * - isolated for the bidi algorithm (U+2068 … U+2069 in the text and the subject, <bdi> and
 *   dir="auto" in the HTML), so a right-to-left override it holds ends with it and cannot reverse
 *   the sentence, the link or the address around it;
 * - escaped in the HTML part.
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

/** Text that people wrote, as a message's value: shown isolated (written), never as the message's own words. */
interface Written {
  written: string;
}

/** A sentence of the catalogue, with its values: the message's own words (a status's name), or what people wrote. */
interface Sentence {
  key: MessageKey;
  values: Record<string, string | number | Written>;
}

/** One line of the message: its sentence, maybe a quoted reply, and the item it links to. */
interface Line {
  sentence: Sentence;
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
  const t = (key: MessageKey) => messages.t(key);
  // A sentence as plain text (the text part, the subject) and as HTML.
  const asText = (sentence: Sentence) => messages.t(sentence.key, plainValues(sentence.values));
  const asHtml = (sentence: Sentence) =>
    messages
      .parts<Written>(sentence.key, sentence.values)
      .map((part) => (typeof part === 'string' ? escape(part) : `<bdi>${escape(balanced(oneLine(part.written)))}</bdi>`))
      .join('');
  const project: Written = { written: first.project_name };
  const lines = rows.map((row) => lineOf(row, messages, links.origin));
  const items = [...new Set(lines.map((line) => line.feedbackId).filter((id): id is string => id !== null))];
  const subject = asText(rows.length === 1 ? { key: 'mail.subjectOne', values: { project, title: { written: titleOf(first) } } } : { key: 'mail.subjectMany', values: { project, count: rows.length } });
  const why: Sentence = { key: 'mail.why', values: { project } };
  const unsubscribeAll: Sentence = { key: 'mail.unsubscribeAll', values: { project } };
  const unsubscribeUrl = await links.unsubscribe(null);
  // A message about one item offers to leave that item alone, as well as the whole project.
  const itemUnsubscribe = items.length === 1 ? await links.unsubscribe(items[0]!) : undefined;

  const text = [
    ...lines.flatMap((line) => [asText(line.sentence), ...(line.quote ? quoteLines(line.quote).map((quoted) => `> ${isolate(quoted)}`) : []), `${t('mail.view')}: ${line.url}`, '']),
    '-- ',
    asText(why),
    ...(itemUnsubscribe ? [`${t('mail.unsubscribeItem')}: ${itemUnsubscribe}`] : []),
    `${asText(unsubscribeAll)}: ${unsubscribeUrl}`,
  ].join('\n');

  const dir = messages.dir;
  const html = `<!doctype html><html lang="${escape(messages.lang)}" dir="${dir}"><head><meta charset="utf-8"><title>${escape(subject)}</title></head><body>
${lines
  .map(
    (line) => `<p>${asHtml(line.sentence)}</p>
${line.quote ? `<blockquote dir="auto">${quoteLines(line.quote).map((quoted) => escape(balanced(quoted))).join('<br>')}</blockquote>\n` : ''}<p><a href="${escape(line.url)}">${escape(t('mail.view'))}</a></p>\n`,
  )
  .join('')}<hr>
<p><small>${asHtml(why)}<br>
${itemUnsubscribe ? `<a href="${escape(itemUnsubscribe)}">${escape(t('mail.unsubscribeItem'))}</a><br>\n` : ''}<a href="${escape(unsubscribeUrl)}">${asHtml(unsubscribeAll)}</a></small></p>
</body></html>`;
  return { subject, text, html, unsubscribeUrl };
}

/** A sentence's values for plain text: what people wrote on one line and isolated, the message's own words as they are. */
function plainValues(values: Sentence['values']): Record<string, string | number> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === 'object' ? isolate(oneLine(value.written)) : value]));
}

/**
 * Every character a mail reader may start a new line at, or that has no business in one line of
 * text: the C0 and C1 controls (CR, LF, VT, FF and NEL among them, tab too) and the Unicode line
 * and paragraph separators (U+2028, U+2029). A run of them becomes one space.
 */
const BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Text people wrote, on one line: whatever breaks a line is a space. */
function oneLine(text: string): string {
  return text.replace(BREAKS_AND_CONTROLS, ' ');
}

/** The lines of a quoted reply, whatever line breaks it was written with (CR LF, CR, NEL, U+2028, …), each without controls. */
function quoteLines(text: string): string[] {
  return text.split(/\r\n|[\n\v\f\r\u0085\u2028\u2029]/).map(oneLine);
}

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';
/** The isolate initiators: left-to-right, right-to-left, first strong. */
const ISOLATE_INITIATORS = new Set(['\u2066', '\u2067', '\u2068']);

/**
 * Text people wrote with its own isolates balanced, so that it cannot end the isolate it is put in
 * (isolate, <bdi>): a U+2069 with no initiator before it is left out, and an initiator left open is
 * closed at its end.
 */
function balanced(text: string): string {
  let open = 0;
  let kept = '';
  for (const char of text) {
    if (ISOLATE_INITIATORS.has(char)) open += 1;
    else if (char === POP_DIRECTIONAL_ISOLATE) {
      if (open === 0) continue;
      open -= 1;
    }
    kept += char;
  }
  return kept + POP_DIRECTIONAL_ISOLATE.repeat(open);
}

/**
 * Text people wrote, isolated for the bidi algorithm (UAX #9) in plain text: balanced, between
 * U+2068 (first strong isolate) and U+2069 (pop directional isolate), which also ends every
 * embedding or override opened inside it.
 */
function isolate(text: string): string {
  return FIRST_STRONG_ISOLATE + balanced(text) + POP_DIRECTIONAL_ISOLATE;
}

/** What the subject names for one notification: the item, or the changelog entry. */
function titleOf(row: ClaimedNotification): string {
  const data = row.data as { feedback?: { title: string }; entry?: { title: string } };
  return data.feedback?.title ?? data.entry?.title ?? '';
}

function lineOf(row: ClaimedNotification, messages: Messages, origin: string): Line {
  const status = (value: FeedbackStatus) => messages.t(`status.${value}` as MessageKey);
  const sentence = (key: MessageKey, values: Sentence['values']): Sentence => ({ key, values });
  const data = row.data as {
    feedback?: { id: string; title: string };
    from?: FeedbackStatus;
    to?: FeedbackStatus;
    reply?: { content: string };
    source?: { title: string };
    entry?: { id: string; title: string };
  };
  const title: Written = { written: data.feedback?.title ?? '' };
  const item = { feedbackId: row.feedback_id, url: `${origin}${boardPaths.item(row.project_slug, row.feedback_id!)}` };
  switch (row.kind) {
    case 'status_changed':
      return { sentence: sentence('mail.statusChanged', { title, from: status(data.from!), to: status(data.to!) }), ...item };
    case 'team_reply':
      return { sentence: sentence('mail.teamReply', { title }), quote: data.reply?.content, ...item };
    case 'merged':
      return { sentence: sentence('mail.merged', { title, source: { written: data.source?.title ?? '' } }), ...item };
    case 'shipped':
      return { sentence: sentence('mail.shipped', { entry: { written: data.entry?.title ?? '' } }), feedbackId: null, url: `${origin}${boardPaths.changelogEntry(row.project_slug, data.entry?.id ?? '')}` };
  }
}


import { WebhookEventSchema, type WebhookEvent } from '@feedbackd/sdk/contract';

/**
 * Bodies for chat tools' incoming webhooks (an endpoint's `format`): Slack takes `{"text": ...}`,
 * Discord `{"content": ...}`, so a team can point a channel's webhook URL straight at a project.
 * One line per event, for people; the signature headers are sent as with every format.
 *
 * Titles and comments come from anyone on the internet (the board takes anonymous posts), and
 * both tools read markup in the text: Slack's `<!channel>` pings a channel and `<url|label>` masks
 * a link; Discord's `@everyone` pings, `<@id>` mentions and `[label](url)` masks a link. So every
 * value interpolated into a line goes through the format's `text` function, and what markup a
 * line has is written here, by us, never taken from the data (docs/webhooks.md, "Chat channels").
 */

/** How one format writes a value taken from an event as plain text. */
type PlainText = (value: string) => string;

/** The line a chat shows for an event, each value of it written by `text`. */
export function chatLine(event: WebhookEvent, text: PlainText = (value) => value): string {
  const quoted = (title: string) => `"${text(title)}"`;
  switch (event.type) {
    case 'feedback.created': {
      const { feedback } = event.data;
      return `New ${text(feedback.type)}: ${quoted(feedback.title)}${feedback.endUser ? ` from ${text(feedback.endUser.externalId)}` : ''}`;
    }
    case 'feedback.status_changed':
      return `${quoted(event.data.feedback.title)} moved from ${text(event.data.from)} to ${text(event.data.to)}${event.data.actor ? ` (by ${text(event.data.actor)})` : ''}`;
    case 'feedback.merged':
      return `${quoted(event.data.source.title)} was merged into ${quoted(event.data.target.title)}`;
    case 'feedback.deleted':
      // An erased person's item is announced without its title (docs/api.md): its id is all that is left.
      return `${event.data.feedback.title === '' ? `Item ${text(event.data.feedback.id)}` : quoted(event.data.feedback.title)} was deleted`;
    case 'vote.added':
    case 'vote.removed':
      return `A vote was ${event.type === 'vote.added' ? 'added to' : 'removed from'} ${text(event.data.feedback.id)}: ${event.data.feedback.voteCount} now`;
    case 'comment.created':
      return `New ${event.data.comment.internal ? 'internal note' : 'comment'} on ${text(event.data.feedback.id)}: ${quoted(event.data.comment.content.slice(0, 300))}`;
    case 'comment.updated': {
      // A note moved out of a thread its author deleted is neither pinned nor edited: "updated" says no more than is known.
      const { comment } = event.data;
      const change = comment.isPinned ? 'pinned or edited' : comment.editedAt ? 'edited' : 'updated';
      return `${aComment(comment.internal)} on ${text(event.data.feedback.id)} was ${change}: ${quoted(comment.content.slice(0, 300))}`;
    }
    case 'comment.deleted': {
      // `repliesDeleted` is what this endpoint may know of (never a note, unless the comment is one): the line says no more.
      const replies = event.data.repliesDeleted;
      return `${aComment(event.data.comment.internal)} on ${text(event.data.feedback.id)} was deleted${replies > 0 ? `, with ${replies} ${replies === 1 ? 'reply' : 'replies'}` : ''}`;
    }
    case 'user.erased':
      // Never the externalId: a chat channel keeps its messages, and the person asked to be forgotten.
      return `An end user was erased: ${event.data.counts.votes} votes, ${event.data.counts.submissionsDeleted + event.data.counts.submissionsAnonymised} submissions and ${event.data.counts.commentsDeleted + event.data.counts.commentsAnonymised} comments`;
    case 'changelog.published':
      return `Changelog: ${quoted(event.data.entry.title)} was published${event.data.entry.items.length > 0 ? ` (${event.data.entry.items.length} linked items)` : ''}`;
    case 'notification.created': {
      // Never the recipients themselves: a chat channel keeps its messages, and addresses are personal.
      const change = event.data.notification;
      const about = change.kind === 'shipped' ? quoted(change.entry.title) : quoted(change.feedback.title);
      return `${event.data.recipients.length} subscribers told (${text(change.kind)}): ${about}`;
    }
    case 'webhook.test':
      return text(event.data.message);
  }
}

/** A chat line's subject: an internal note or a comment. */
function aComment(internal: boolean | undefined): string {
  return internal ? 'An internal note' : 'A comment';
}

/** One line: a value's line breaks (a comment's paragraphs, U+2028/9) become spaces. */
function oneLine(value: string): string {
  return value.replace(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/g, ' ');
}

/**
 * Slack's escaping (its "Formatting text" reference): `&`, `<` and `>` are its control
 * characters and become `&amp;`, `&lt;`, `&gt;`, so `<!channel>`, `<@U…>` and `<url|label>` in a
 * title arrive as the text they are. Plain `@channel` does not ping from an incoming webhook (no
 * `link_names`), and a bare URL shows itself.
 */
export function slackText(value: string): string {
  return oneLine(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Discord's markdown, read as text: a backslash before each character its markdown gives a
 * meaning to (`[label](url)` masked links, `<@id>` and `<#id>` mentions, `<t:…>`, emphasis,
 * spoilers, code, and the backslash itself), and a zero-width space after each `@`, so that
 * `@everyone` and `@here` show as text and are no mention even to a client that ignores
 * `allowed_mentions` (which the body also sets: see formatBody). Line breaks are spaces, so no
 * value starts a heading, a quote or a list.
 */
export function discordText(value: string): string {
  return oneLine(value).replace(/[\\*_~`|<>[\]()]/g, '\\$&').replace(/@/g, '@\u200B');
}

/** The body an endpoint of `format` receives: the event's JSON as it is, or a chat message. */
export function formatBody(format: string, eventJson: string): string {
  if (format === 'standard') return eventJson;
  const parsed = WebhookEventSchema.safeParse(JSON.parse(eventJson));
  const text = format === 'slack' ? slackText : discordText;
  // Every event the server writes parses; a type without a line of its own is named as it is.
  const line = parsed.success ? chatLine(parsed.data, text) : text(String((JSON.parse(eventJson) as { type?: unknown }).type));
  // Discord: no mention in the text pings anyone, whatever it is (`parse: []` allows none).
  return JSON.stringify(format === 'slack' ? { text: line } : { content: line, allowed_mentions: { parse: [] } });
}

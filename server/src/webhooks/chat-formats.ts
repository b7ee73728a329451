/**
 * Bodies for chat tools' incoming webhooks (an endpoint's `format`): Slack takes `{"text": ...}`,
 * Discord `{"content": ...}`, so a team can point a channel's webhook URL straight at a project.
 * One line per event, for people; the signature headers are sent as with every format.
 */

type Data = Record<string, any>;

/** The line a chat shows for an event. */
export function chatLine(type: string, data: Data): string {
  const item = (ref: Data | undefined) => `"${ref?.title ?? ref?.id ?? 'an item'}"`;
  switch (type) {
    case 'feedback.created':
      return `New ${data.feedback?.type ?? 'feedback'}: ${item(data.feedback)}${data.feedback?.endUser ? ` from ${data.feedback.endUser.externalId}` : ''}`;
    case 'feedback.status_changed':
      return `${item(data.feedback)} moved from ${data.from} to ${data.to}${data.actor ? ` (by ${data.actor})` : ''}`;
    case 'feedback.merged':
      return `${item(data.source)} was merged into ${item(data.target)}`;
    case 'feedback.deleted':
      return `${item(data.feedback)} was deleted`;
    case 'vote.added':
    case 'vote.removed':
      return `A vote was ${type === 'vote.added' ? 'added to' : 'removed from'} ${data.feedback?.id}: ${data.feedback?.voteCount} now`;
    case 'comment.created':
      return `New comment on ${data.feedback?.id}: "${String(data.comment?.content ?? '').slice(0, 300)}"`;
    case 'webhook.test':
      return String(data.message ?? 'A test of this webhook');
    default:
      return type;
  }
}

/** The body an endpoint of `format` receives: the event's JSON as it is, or a chat message. */
export function formatBody(format: string, eventJson: string, type: string, data: string): string {
  if (format === 'slack') return JSON.stringify({ text: chatLine(type, JSON.parse(data) as Data) });
  if (format === 'discord') return JSON.stringify({ content: chatLine(type, JSON.parse(data) as Data) });
  return eventJson;
}

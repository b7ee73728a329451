import { WebhookEventSchema, type WebhookEvent } from '@feedbackd/sdk/contract';

/**
 * Bodies for chat tools' incoming webhooks (an endpoint's `format`): Slack takes `{"text": ...}`,
 * Discord `{"content": ...}`, so a team can point a channel's webhook URL straight at a project.
 * One line per event, for people; the signature headers are sent as with every format.
 */

/** The line a chat shows for an event. */
export function chatLine(event: WebhookEvent): string {
  const quoted = (title: string) => `"${title}"`;
  switch (event.type) {
    case 'feedback.created': {
      const { feedback } = event.data;
      return `New ${feedback.type}: ${quoted(feedback.title)}${feedback.endUser ? ` from ${feedback.endUser.externalId}` : ''}`;
    }
    case 'feedback.status_changed':
      return `${quoted(event.data.feedback.title)} moved from ${event.data.from} to ${event.data.to}${event.data.actor ? ` (by ${event.data.actor})` : ''}`;
    case 'feedback.merged':
      return `${quoted(event.data.source.title)} was merged into ${quoted(event.data.target.title)}`;
    case 'feedback.deleted':
      return `${quoted(event.data.feedback.title)} was deleted`;
    case 'vote.added':
    case 'vote.removed':
      return `A vote was ${event.type === 'vote.added' ? 'added to' : 'removed from'} ${event.data.feedback.id}: ${event.data.feedback.voteCount} now`;
    case 'comment.created':
      return `New comment on ${event.data.feedback.id}: "${event.data.comment.content.slice(0, 300)}"`;
    case 'user.erased':
      // Never the externalId: a chat channel keeps its messages, and the person asked to be forgotten.
      return `An end user was erased: ${event.data.counts.votes} votes, ${event.data.counts.submissionsDeleted + event.data.counts.submissionsAnonymised} submissions and ${event.data.counts.commentsDeleted + event.data.counts.commentsAnonymised} comments`;
    case 'webhook.test':
      return event.data.message;
  }
}

/** The body an endpoint of `format` receives: the event's JSON as it is, or a chat message. */
export function formatBody(format: string, eventJson: string): string {
  if (format === 'standard') return eventJson;
  const parsed = WebhookEventSchema.safeParse(JSON.parse(eventJson));
  // Every event the server writes parses; a type without a line of its own is named as it is.
  const line = parsed.success ? chatLine(parsed.data) : String((JSON.parse(eventJson) as { type?: unknown }).type);
  return JSON.stringify(format === 'slack' ? { text: line } : { content: line });
}

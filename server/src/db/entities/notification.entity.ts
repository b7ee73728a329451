import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MAIL_STATES, NOTIFICATION_KINDS } from '@feedbackd/sdk/contract';
import { EndUser } from './end-user.entity.js';
import { Feedback } from './feedback.entity.js';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/**
 * One thing one subscriber is told (docs/notifications.md): written by `notify_subscribers` in the
 * transaction of the change, and the mail log at once (`mailState`, attempts, the last error).
 * `changeId` groups the rows of one change (the id `notification.created` carries).
 */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  indexes: [
    { name: 'notifications_pending_created_at_index', expression: `create index "notifications_pending_created_at_index" on "notifications" ("created_at") where "mail_state" = 'pending'` },
    { name: 'notifications_pending_end_user_id_index', expression: `create index "notifications_pending_end_user_id_index" on "notifications" ("end_user_id") where "mail_state" = 'pending'` },
    { name: 'notifications_project_id_created_at_index', properties: ['project', 'createdAt'] },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    changeId: p.uuid(),
    endUser: p.manyToOne(EndUser).deleteRule('cascade').updateRule('cascade'),
    feedback: p.manyToOne(Feedback).nullable().deleteRule('set null').updateRule('cascade'),
    kind: p.enum([...NOTIFICATION_KINDS]),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    mailState: p.enum([...MAIL_STATES]).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(3).defaultRaw('now()'),
    claimedUntil: p.datetime(3).nullable(),
    lastError: p.text().nullable(),
    sentAt: p.datetime(3).nullable(),
  },
});

export type Notification = InferEntity<typeof Notification>;

/**
 * A change whose notifications are held (docs/notifications.md, "Held while the Undo is offered"):
 * its rows are written, but the mail sender claims none of them and its `notification.created`
 * events are not written until the machine's jobs release it (`release_notifications`), or a
 * change that reverses it takes it back with its rows (`notify_subscribers`,
 * Migration0027_notification_holds). `kind` and `data` are the change's, as its rows
 * and events carry them; `createdAt` is the time of the change, and of its rows.
 */
export const NotificationHold = defineEntity({
  name: 'NotificationHold',
  tableName: 'notification_holds',
  indexes: [
    { name: 'notification_holds_feedback_id_index', properties: ['feedback'] },
    { name: 'notification_holds_created_at_index', properties: ['createdAt'] },
  ],
  properties: {
    changeId: p.uuid().primary(),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    feedback: p.manyToOne(Feedback).nullable().deleteRule('set null').updateRule('cascade'),
    kind: p.enum([...NOTIFICATION_KINDS]),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type NotificationHold = InferEntity<typeof NotificationHold>;

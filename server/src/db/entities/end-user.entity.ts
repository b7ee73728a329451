import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { Metadata } from '@feedbackd/sdk/contract';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/** An end user of the customer's product, known by the customer's own id (externalId). */
export const EndUser = defineEntity({
  name: 'EndUser',
  tableName: 'end_users',
  uniques: [{ name: 'end_users_project_id_external_id_unique', properties: ['project', 'externalId'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    externalId: p.text(),
    email: p.text().nullable(),
    name: p.text().nullable(),
    avatarUrl: p.text().nullable(),
    metadata: p.json<Metadata>().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    updatedAt: p.datetime(3).defaultRaw('now()'),
    /** The end user's unsubscribe from the whole project's notifications (docs/notifications.md). */
    unsubscribedAt: p.datetime(3).nullable(),
    /** When the end user last opened the widget's "My requests": what changed after it is unread (docs/widget.md). */
    widgetSeenAt: p.datetime(3).nullable(),
    /** When a mail server refused this address for good (a 5xx): no mail goes to it again (docs/notifications.md). */
    emailSuppressedAt: p.datetime(3).nullable(),
  },
});

export type EndUser = InferEntity<typeof EndUser>;

import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { FEEDBACK_STATUSES } from '@feedbackd/sdk/contract';
import { ApiKey } from './api-key.entity.js';
import { Feedback } from './feedback.entity.js';

const p = defineEntity.properties;

/**
 * One status change of an item: from, to, when, with which key, and the optional name of the
 * person behind it. Written by the operator side in the transaction that changes the status; the
 * detail view lists them oldest first for secret keys.
 */
export const StatusChange = defineEntity({
  name: 'StatusChange',
  tableName: 'feedback_status_changes',
  indexes: [{ name: 'feedback_status_changes_feedback_id_id_index', properties: ['feedback', 'id'] }],
  properties: {
    // A sequence, not a uuid: changes of one item are serialised by its row lock, so the order of
    // their ids is the order they happened in (timestamps of one millisecond would tie).
    id: p.bigint('number').primary().autoincrement(),
    feedback: p.manyToOne(Feedback).deleteRule('cascade').updateRule('cascade'),
    fromStatus: p.enum([...FEEDBACK_STATUSES]),
    toStatus: p.enum([...FEEDBACK_STATUSES]),
    /** The key that made the change; null once that key's row is gone. */
    apiKey: p.manyToOne(ApiKey).nullable().deleteRule('set null').updateRule('cascade'),
    actor: p.text().nullable(),
    // The moment of the change itself, not the start of its transaction (which may have waited for the lock).
    changedAt: p.datetime(3).defaultRaw('clock_timestamp()'),
  },
});

export type StatusChange = InferEntity<typeof StatusChange>;

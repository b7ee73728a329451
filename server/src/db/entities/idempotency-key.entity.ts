import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/**
 * A POST, PATCH or DELETE made with an Idempotency-Key, remembered for 24 hours so that a retry
 * of it is answered with the stored response instead of being carried out again. The row is
 * written in the transaction of the change itself, answer included (http/idempotent-writes.ts);
 * `status` is null only in a reservation left by a release before 0.2, which a retry takes over.
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  indexes: [{ name: 'idempotency_keys_created_at_index', properties: ['createdAt'] }],
  properties: {
    project: p.manyToOne(Project).primary().deleteRule('cascade').updateRule('cascade'),
    key: p.text().primary(),
    /** SHA-256 of the method, path and canonical JSON body: the same key with another request is refused. */
    requestHash: p.text(),
    status: p.integer().nullable(),
    /** The answer's body exactly as it was sent, so that a replay is the same bytes. */
    body: p.text().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;

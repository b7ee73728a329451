import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Project } from '../projects/project.entity.js';

const p = defineEntity.properties;

/**
 * A POST, PATCH or DELETE made with an Idempotency-Key, remembered for 24 hours so that a retry
 * of it is answered with the stored response instead of being carried out again. `status` is null
 * while the first request is still running (the key is reserved).
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  indexes: [{ name: 'idempotency_keys_created_at_index', properties: ['createdAt'] }],
  properties: {
    project: p.manyToOne(Project).primary().deleteRule('cascade'),
    key: p.text().primary(),
    /** SHA-256 of the method, path and canonical JSON body: the same key with another request is refused. */
    requestHash: p.text(),
    status: p.integer().nullable(),
    body: p.json<unknown>().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;

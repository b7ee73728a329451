import { defineEntity, type InferEntity } from '@mikro-orm/core';

const p = defineEntity.properties;

/**
 * The server's voter secret (db/voter-secret.ts): one row, its fingerprint, and the secret itself
 * only where it lives nowhere else (PostgreSQL without FEEDBACK_VOTER_SECRET). Read and written
 * with SQL; the entity is the schema's record of the table.
 */
export const VoterSecret = defineEntity({
  name: 'VoterSecret',
  tableName: 'voter_secret',
  checks: [{ name: 'voter_secret_one_row', expression: 'id = 1' }],
  properties: {
    id: p.smallint().primary().autoincrement(false).default(1),
    fingerprint: p.text(),
    secret: p.text().nullable(),
  },
});

export type VoterSecret = InferEntity<typeof VoterSecret>;

import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/** An API key, public or secret. Only the SHA-256 of the key is stored; the key itself is shown once. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    name: p.text().nullable(),
    keyHash: p.text().unique(),
    /** The first characters of the key, to recognise it in listings. */
    keyPrefix: p.text(),
    /** `public` (pk_: the spec's endpoints) or `secret` (sk_: every endpoint). Keys made before secret keys existed are public. */
    kind: p.enum(['public', 'secret'] as const).default('public'),
    createdAt: p.datetime(3).defaultRaw('now()'),
    revokedAt: p.datetime(3).nullable(),
  },
});

export type ApiKey = InferEntity<typeof ApiKey>;

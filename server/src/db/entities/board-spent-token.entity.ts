import { defineEntity, type InferEntity } from '@mikro-orm/core';

const p = defineEntity.properties;

/**
 * A board sign-in token that was exchanged for a session (web/board/visitors.ts), kept by the hash of its
 * text until it would have expired anyway, so that it works once; and a form's spam-guard stamp that
 * let a post through (web/kit/form-guard.ts), kept as `form:<its random id>` likewise. The hot side
 * writes both with SQL (domain/people/visitor-tokens.sql.ts); the entity is the schema's record of the table.
 */
export const BoardSpentToken = defineEntity({
  name: 'BoardSpentToken',
  tableName: 'board_spent_tokens',
  properties: {
    tokenHash: p.text().primary(),
    expiresAt: p.datetime(),
  },
});

export type BoardSpentToken = InferEntity<typeof BoardSpentToken>;

import { defineEntity, type InferEntity } from '@mikro-orm/core';

const p = defineEntity.properties;

/** A tenant: one customer product. Every other row belongs to one project. */
export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    /** Stable handle; the project made on first start is `default`. */
    slug: p.text().unique(),
    name: p.text(),
    /** Salt of the hashed IPs that identify anonymous voters; kept in the database so every instance hashes alike. */
    voterSalt: p.text().hidden().lazy(),
    /** Whether the public board and roadmap are served at /b/<slug> (docs/board.md); an operator turns it on. */
    boardEnabled: p.boolean().default(false),
    /** The key the host app signs its visitors' board tokens with (HS256); none: the board takes no token. Shown once, by `feedback board secret`. */
    identitySecret: p.text().nullable().hidden().lazy(),
    /** Origins allowed to frame the board (CSP frame-ancestors); empty refuses every frame. */
    boardFrameOrigins: p.array().defaultRaw("'{}'"),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type Project = InferEntity<typeof Project>;

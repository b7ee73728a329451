import { upsertEndUser } from './end-user.sql.js';
import { isoTimestamp, jsonObject } from '../../db/json.sql.js';
import type { Statement } from '../../db/pool.js';

/** Spec 4.1: create or update the end user; the IdentifiedUser JSON back. $1 project, $2 externalId, $3 given profile. */
export const IDENTIFY: Statement = {
  name: 'identify',
  text: `with u as (${upsertEndUser(
    { project: '$1::uuid', externalId: '$2::text', profile: '$3' },
    { returning: 'id, email, name, avatar_url, created_at' },
  )})
  select ${jsonObject([
    ['id', 'id'],
    ['email', 'email'],
    ['name', 'name'],
    ['avatarUrl', 'avatar_url'],
    ['createdAt', isoTimestamp('created_at')],
  ])}::text as body from u`,
};

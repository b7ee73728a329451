import type { Statement } from '../../db/pool.js';
import { upsertEndUser } from './end-user.sql.js';

/**
 * A visitor's token exchanged for their session, in one statement: the token's hash is spent (a
 * second use inserts nothing) and, only when it was not spent before, the end user is created or
 * updated with the token's profile, exactly as identify does (domain/people/end-user.sql.ts). Returns
 * `fresh` false for a token used before; else the end user's id and name. $1 project, $2 externalId,
 * $3 token hash, $4 the token's expiry (Unix seconds), $5 the profile as JSON.
 */
export const EXCHANGE_TOKEN: Statement = {
  name: 'board_exchange_token',
  text: `with spent as (
    insert into board_spent_tokens (token_hash, expires_at) values ($3, to_timestamp($4)) on conflict do nothing returning 1
  ), u as (
    ${upsertEndUser({ project: '$1::uuid', externalId: '$2::text', profile: '$5' }, { where: 'exists (select 1 from spent)', returning: 'id, name' })}
  )
  select exists (select 1 from spent) as fresh, (select id::text from u) as end_user_id, (select name from u) as name`,
};

/**
 * A form's stamp spent (web/kit/form-guard.ts) in the same table, until it expires: $1 its id
 * (`form:` and its random part, apart from the tokens' hashes), $2 its expiry in Unix seconds. A row
 * back when it was not spent before; the sign-in sweep deletes expired rows (jobs/machine-jobs.ts).
 */
export const SPEND_FORM_STAMP: Statement = {
  name: 'board_spend_form_stamp',
  text: 'insert into board_spent_tokens (token_hash, expires_at) values ($1, to_timestamp($2)) on conflict do nothing returning 1 as fresh',
};

/** Spent tokens past their expiry, which could not be used again anyway (jobs/machine-jobs.ts). */
export const SWEEP_SPENT_TOKENS = 'delete from board_spent_tokens where expires_at < now()';

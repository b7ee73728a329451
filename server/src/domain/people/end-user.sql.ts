/**
 * The end user's profile as a statement takes it (a jsonb parameter): the end user as the request
 * gave it, validated by the contract, as JSON (`JSON.stringify(endUser)`). Only its profile fields
 * (FIELDS) are read: an omitted field is absent and keeps the stored value, a `null` one clears it;
 * the externalId in it is ignored (the statements take it as a parameter of its own).
 */
const FIELDS = [
  { key: 'email', column: 'email', value: (p: string) => `${p}::jsonb->>'email'` },
  { key: 'name', column: 'name', value: (p: string) => `${p}::jsonb->>'name'` },
  { key: 'avatarUrl', column: 'avatar_url', value: (p: string) => `${p}::jsonb->>'avatarUrl'` },
  { key: 'metadata', column: 'metadata', value: (p: string) => `nullif(${p}::jsonb->'metadata', 'null'::jsonb)` },
] as const;

interface EndUserParams {
  project: string;
  externalId: string;
  /** A jsonb parameter: the end user as the request gave it (see FIELDS). */
  profile: string;
}

/**
 * `insert ... on conflict do update` of the end user (project, externalId) with the given profile:
 * fields it lacks keep their stored values. `where` is a condition for writing at all.
 */
export function upsertEndUser(params: EndUserParams, options: { where?: string; returning: string }): string {
  const { project, externalId, profile } = params;
  const set = FIELDS.map((f) => `${f.column} = case when ${profile}::jsonb ? '${f.key}' then excluded.${f.column} else end_users.${f.column} end`);
  return `insert into end_users (project_id, external_id, ${FIELDS.map((f) => f.column).join(', ')})
    select ${project}, ${externalId}, ${FIELDS.map((f) => f.value(profile)).join(', ')}
    ${options.where ? `where ${options.where}` : ''}
    on conflict (project_id, external_id) do update set ${set.join(', ')}, updated_at = now()
    returning ${options.returning}`;
}

/** Whether the given profile (a jsonb expression) would change no field of the stored user `stored`. */
export function profileUnchanged(profile: string, stored: string): string {
  return FIELDS.map((f) => `(not ${profile}::jsonb ? '${f.key}' or ${stored}.${f.column} is not distinct from ${f.value(profile)})`).join(' and ');
}

/**
 * The CTEs `e` (the stored user), `u` (the upsert) and `uid` (the user's id, name and avatar).
 * The upsert runs only when the user is new or the request changes a field, so a returning voter
 * costs a read, not a row rewrite and its lock. A user created by a concurrent request after this
 * statement's snapshot is not in `e`: the insert then meets it and updates it, so `uid` always
 * has the user. `guard` is a further condition for writing (e.g. that the voted item exists).
 */
export function endUserCtes(params: EndUserParams, guard?: string): string {
  const { project, externalId, profile } = params;
  const write = `not exists (select 1 from e where ${profileUnchanged(profile, 'e')})`;
  return `e as (
    select id, name, avatar_url, email, metadata from end_users where project_id = ${project} and external_id = ${externalId}
  ), u as (
    ${upsertEndUser(params, { where: guard ? `${guard} and ${write}` : write, returning: 'id, name, avatar_url' })}
  ), uid as (
    select id, name, avatar_url from u
    union all
    select id, name, avatar_url from e where not exists (select 1 from u)
  )`;
}

import { createHash } from 'node:crypto';
import type { SqlPool } from '../../db/pool.js';

/** How long a key is remembered (a retry after that runs the request again). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A reservation this old without a response belongs to a request that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;

/** What the store knows of a key when a request arrives with it. */
export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'mismatch' }
  | { kind: 'in-progress' };

type KeyRow = {
  request_hash: string;
  status: number | null;
  body: unknown;
  age_ms: number;
  expired: boolean;
};

/**
 * Reserves `key` for this request, or says why not. The reservation is one
 * `insert … on conflict do nothing`: of two requests racing with one key, exactly one runs.
 */
export async function reserveKey(sql: SqlPool, projectId: string, key: string, requestHash: string): Promise<Reservation> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await sql.query<{ key: string }>(
      'idempotency_reserve',
      'insert into idempotency_keys (project_id, key, request_hash) values ($1, $2, $3) on conflict do nothing returning key',
      [projectId, key, requestHash],
    );
    if (inserted.length > 0) return { kind: 'reserved' };

    const rows = await sql.query<KeyRow>(
      'idempotency_read',
      `select request_hash, status, body,
              (extract(epoch from now() - created_at) * 1000)::float8 as age_ms,
              created_at < now() - make_interval(hours => $1) as expired
       from idempotency_keys where project_id = $2 and key = $3`,
      [IDEMPOTENCY_TTL_HOURS, projectId, key],
    );
    const row = rows[0];
    if (!row) continue; // released or expired between the two statements: try to reserve again
    if (row.expired) {
      await sql.query('idempotency_expire', 'delete from idempotency_keys where project_id = $1 and key = $2 and created_at < now() - make_interval(hours => $3)', [
        projectId,
        key,
        IDEMPOTENCY_TTL_HOURS,
      ]);
      continue;
    }
    if (row.request_hash !== requestHash) return { kind: 'mismatch' };
    if (row.status !== null) return { kind: 'replay', status: row.status, body: row.body };
    if (row.age_ms > ABANDONED_AFTER_MS) {
      const taken = await sql.query<{ key: string }>(
        'idempotency_take_over',
        'update idempotency_keys set created_at = now() where project_id = $1 and key = $2 and status is null and created_at < now() - make_interval(secs => $3) returning key',
        [projectId, key, ABANDONED_AFTER_MS / 1000],
      );
      if (taken.length > 0) return { kind: 'reserved' };
    }
    return { kind: 'in-progress' };
  }
  return { kind: 'in-progress' };
}

/** Stores the response of a reserved key, to be replayed to its retries. A string body is JSON text already. */
export async function storeResponse(sql: SqlPool, projectId: string, key: string, status: number, body: unknown): Promise<void> {
  await sql.query('idempotency_store', 'update idempotency_keys set status = $1, body = $2::jsonb where project_id = $3 and key = $4', [
    status,
    typeof body === 'string' ? body : JSON.stringify(body ?? null),
    projectId,
    key,
  ]);
}

/** Drops a reservation whose request failed, so that a retry runs it again. */
export async function releaseKey(sql: SqlPool, projectId: string, key: string): Promise<void> {
  await sql.query('idempotency_release', 'delete from idempotency_keys where project_id = $1 and key = $2 and status is null', [projectId, key]);
}

/** Deletes every expired key (of all projects). Cheap: it walks the created_at index. */
export async function deleteExpiredKeys(sql: SqlPool): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    'idempotency_sweep',
    'with gone as (delete from idempotency_keys where created_at < now() - make_interval(hours => $1) returning 1) select count(*)::int as n from gone',
    [IDEMPOTENCY_TTL_HOURS],
  );
  return rows[0]?.n ?? 0;
}

/** A fingerprint of a request: the same key sent with another method, path or body is refused. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body ?? {})}`).digest('hex');
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

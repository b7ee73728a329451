import { createHash } from 'node:crypto';
import type { SqlPool } from './pool.js';

/**
 * The statements of the `idempotency_keys` table (db/entities/idempotency-key.entity.ts): the
 * claim, read and answer of a write sent with an Idempotency-Key (http/idempotent-writes.ts), and
 * the sweep of expired keys (jobs/machine-jobs.ts). Raw SQL on the hot connections, as every
 * request may pass through them.
 */

/** How long a key is remembered (a retry after that runs the request again). */
export const IDEMPOTENCY_TTL_HOURS = 24;

type Sql = Pick<SqlPool, 'query'>;

/** What the store holds for a key that another request claimed first. */
export interface StoredKey {
  requestHash: string;
  /** Null only in a reservation left by a release before 0.2 (see the entity). */
  status: number | null;
  body: string | null;
  expired: boolean;
}

/**
 * Claims `key` in the caller's transaction: true when this request is the first with it. A
 * concurrent transaction that claimed it and has not ended makes this wait for it: if that one
 * commits, this finds its row (false); if it rolls back, this claims the key.
 */
export async function claimKey(tx: Sql, projectId: string, key: string, requestHash: string): Promise<boolean> {
  const claimed = await tx.query<{ key: string }>(
    'idempotency_claim',
    'insert into idempotency_keys (project_id, key, request_hash) values ($1, $2, $3) on conflict do nothing returning key',
    [projectId, key, requestHash],
  );
  return claimed.length > 0;
}

/** The committed row of `key`, or undefined when it went between the claim and this read. */
export async function readKey(tx: Sql, projectId: string, key: string): Promise<StoredKey | undefined> {
  const [row] = await tx.query<{ request_hash: string; status: number | null; body: string | null; expired: boolean }>(
    'idempotency_read',
    `select request_hash, status, body, created_at < now() - make_interval(hours => $1) as expired
     from idempotency_keys where project_id = $2 and key = $3`,
    [IDEMPOTENCY_TTL_HOURS, projectId, key],
  );
  return row && { requestHash: row.request_hash, status: row.status, body: row.body, expired: row.expired };
}

/** Forgets a row that no longer counts (expired, or an old release's reservation), so the key can be claimed. */
export async function forgetKey(tx: Sql, projectId: string, key: string): Promise<void> {
  await tx.query('idempotency_forget', 'delete from idempotency_keys where project_id = $1 and key = $2', [projectId, key]);
}

/** Stores the answer of a claimed key, in the transaction of the change it answers: the body as the exact text sent. */
export async function storeAnswer(tx: Sql, projectId: string, key: string, status: number, body: string): Promise<void> {
  await tx.query('idempotency_store', 'update idempotency_keys set status = $1, body = $2 where project_id = $3 and key = $4', [status, body, projectId, key]);
}

/** Deletes every expired key (of all projects). Cheap: it walks the created_at index. */
export async function deleteExpiredKeys(sql: Sql): Promise<number> {
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

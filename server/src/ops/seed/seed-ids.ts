import { createHash } from 'node:crypto';

/** What a seeded id names; each kind has its own id prefix. */
export type SeedRowKind = 'user' | 'item' | 'vote' | 'comment' | 'anonymous-voter';

/**
 * Seeded ids are derived, not random: the first 20 hex digits come from a hash of the seed, the
 * project's slug and the kind of row, the last 12 count the rows. So the same seed gives the same
 * ids in two databases, another seed or project gives other ids, and each kind's rows go into its
 * primary key's index in order, which keeps bulk inserts fast. They are valid version-4 UUIDs in
 * form, and never collide with `gen_random_uuid()` ids in practice (a 20-digit hash prefix).
 */
export function seedIdPrefix(seed: number, projectSlug: string, kind: SeedRowKind): string {
  const hex = createHash('sha256').update(`feedback-seed\u0000${seed}\u0000${projectSlug}\u0000${kind}`).digest('hex');
  // xxxxxxxx-xxxx-4xxx-Vxxx- with V in 8..b (the RFC 4122 variant).
  const variant = (8 + (Number.parseInt(hex[16]!, 16) & 3)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-`;
}

/** Row number n of a kind, as seedIdSql computes it in SQL. */
export function seedId(prefix: string, n: number): string {
  return prefix + n.toString(16).padStart(12, '0');
}

/** The same id in SQL: `prefix` is a parameter holding seedIdPrefix(...), `n` a bigint expression. */
export function seedIdSql(prefix: string, n: string): string {
  return `(${prefix}::text || lpad(to_hex(${n}), 12, '0'))::uuid`;
}

/** Votes and comments are numbered per item: item index × 2^16 + their number within the item. */
export const ROWS_PER_ITEM = 65_536;

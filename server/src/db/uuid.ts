/** A uuid in its canonical form, as PostgreSQL accepts it (a pattern, so a hot path can test it without a call of ours). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for text PostgreSQL accepts as a uuid in its canonical form. Ids from a URL are checked
 * with this before they reach a query: a malformed id is "not found", never a cast error (500).
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

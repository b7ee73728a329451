const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for text PostgreSQL accepts as a uuid in its canonical form. Ids from a URL are checked
 * with this before they reach a query: a malformed id is "not found", never a cast error (500).
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

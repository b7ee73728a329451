/**
 * The OpenAPI document's operations, found by a request's method and path: what a test needs to
 * check that an answer's status is one the document lists for that operation.
 */

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
}

export interface DocumentedOperation {
  operationId: string;
  /** The statuses the document lists for it. */
  statuses: Set<number>;
}

interface Template {
  pattern: RegExp;
  params: number;
  operations: Record<string, { operationId: string; responses: Record<string, unknown> }>;
}

/**
 * A lookup of (method, path) in `document`: the operation the path matches (a `{param}` matches
 * one segment; of two templates that match, the one with fewer parameters, as the router's literal
 * `/api/v1/webhooks/listen` beats `/api/v1/webhooks/{webhookId}`), or undefined when the document
 * has none for that method and path (an unknown path, a method it does not accept, OPTIONS). HEAD
 * is looked up as GET. The query string is ignored.
 */
export function operationFinder(document: unknown): (method: string, path: string) => DocumentedOperation | undefined {
  const templates: Template[] = Object.entries((document as OpenApiDocument).paths).map(([template, operations]) => ({
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    params: (template.match(/\{/g) ?? []).length,
    operations,
  }));
  return (method, path) => {
    const wanted = method.toUpperCase() === 'HEAD' ? 'get' : method.toLowerCase();
    const bare = path.split('?')[0]!;
    const found = templates.filter((template) => template.pattern.test(bare) && template.operations[wanted]).sort((a, b) => a.params - b.params)[0];
    const operation = found?.operations[wanted];
    if (!operation) return undefined;
    return { operationId: operation.operationId, statuses: new Set(Object.keys(operation.responses).map(Number)) };
  };
}

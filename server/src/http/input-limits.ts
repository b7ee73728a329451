import type { ValidationDetails } from '@feedback/sdk/contract';

/**
 * Limits that bad input meets before any handler or the database sees it (docs/api.md, "Conventions").
 * PostgreSQL cannot store NUL in text or jsonb, and serialising a deeply nested value recurses
 * once per level: both are refused here as invalid input (400), never a 500 from further down.
 */
export const MAX_JSON_DEPTH = 32;

const NUL = '\u0000';

/** What is wrong with one value, in words for its field, or undefined when nothing is. Iterative: no depth can overflow it. */
function problemOf(value: unknown, label: string): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return `${label} must not contain NUL characters`;
    } else if (current !== null && typeof current === 'object') {
      if (depth > MAX_JSON_DEPTH) return `${label} is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
      for (const [key, child] of Object.entries(current)) {
        if (key.includes(NUL)) return `${label} must not contain NUL characters`;
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * Checks every field of a request body or query: field errors keyed by the top-level name, as
 * zod reports them, or undefined when the input is within the limits.
 */
export function checkInputLimits(input: unknown): ValidationDetails | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const problem = problemOf(input, 'The request body');
    return problem ? { formErrors: [problem], fieldErrors: {} } : undefined;
  }
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(input)) {
    const problem = problemOf(value, field);
    if (problem) fieldErrors[field.includes(NUL) ? field.replaceAll(NUL, '') : field] = [problem];
  }
  return Object.keys(fieldErrors).length > 0 ? { formErrors: [], fieldErrors } : undefined;
}

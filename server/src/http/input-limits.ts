import type { ValidationDetails } from '@feedbackd/sdk/contract';

/**
 * Limits that bad input meets before any handler or the database sees it (docs/api.md, "Conventions").
 * PostgreSQL cannot store NUL in text or jsonb, nor a lone UTF-16 surrogate (`\ud800` without its
 * pair: not a character at all) in jsonb, and serialising a deeply nested value recurses once per
 * level: all are refused here as invalid input (400), never a 500 from further down.
 */
export const MAX_JSON_DEPTH = 32;

const NUL = '\u0000';
/** A surrogate that is not half of a pair (with the u flag, a pair is one code point and does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

/** What is wrong with one string (a value or a key), or undefined. */
function stringProblem(text: string, label: string): string | undefined {
  if (text.includes(NUL)) return `${label} must not contain NUL characters`;
  if (LONE_SURROGATE.test(text)) return `${label} must be valid Unicode (it contains a lone surrogate)`;
  return undefined;
}

/**
 * What is wrong with one value, in words for its field, or undefined when nothing is. Iterative: no
 * depth can overflow it. `depth` is the value's level counting the body as 1 (as docs/api.md
 * does), so a top-level field's value is at 2.
 */
function problemOf(value: unknown, label: string, depth: number): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = stringProblem(current, label);
      if (problem) return problem;
    } else if (current !== null && typeof current === 'object') {
      if (depth > MAX_JSON_DEPTH) return `${label} is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
      for (const [key, child] of Object.entries(current)) {
        const problem = stringProblem(key, label);
        if (problem) return problem;
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
    const problem = problemOf(input, 'The request body', 1);
    return problem ? { formErrors: [problem], fieldErrors: {} } : undefined;
  }
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(input)) {
    const problem = problemOf(value, field, 2);
    // A field name that is itself bad is reported in a form that can be sent back.
    if (problem) fieldErrors[field.replaceAll(NUL, '').replace(/\p{Cs}/gu, '\ufffd')] = [problem];
  }
  return Object.keys(fieldErrors).length > 0 ? { formErrors: [], fieldErrors } : undefined;
}

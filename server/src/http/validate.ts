import { z } from 'zod';
import { AppError, toValidationDetails } from './errors.js';

/** Parses request input with a contract schema; a mismatch is a 400 with the spec's details shape. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw AppError.invalidInput(toValidationDetails(result.error));
  return result.data;
}

import { z } from 'zod';

// Query strings arrive as text (or as an array when a parameter is repeated), so these helpers parse
// them strictly: a value that is not exactly what the spec allows is a 400, never a silent default.
// Each ends in a plain schema of the parsed value (its type, limits and default), which is how the
// OpenAPI document describes the parameter.

/**
 * A parameter holding one value or several separated by commas (repeating the parameter also
 * works). An empty value means "not given", but an empty entry in a list (`new,`, `new,,bug`) is
 * refused: the OpenAPI document describes the list as items of the enum, which an empty entry is
 * not, so a validating proxy in front would refuse it too.
 */
export function commaList<T extends z.ZodType<unknown, string>>(item: T, label: string) {
  return z
    .union([z.string(), z.array(z.string())], { error: `${label} must be a string` })
    .optional()
    .transform((value, ctx) => {
      const raw = (value === undefined ? [] : Array.isArray(value) ? value : [value]).filter((part) => part.trim() !== '');
      const parts = raw.flatMap((part) => part.split(',')).map((part) => part.trim());
      if (parts.includes('')) {
        ctx.addIssue({ code: 'custom', message: `${label} has an empty entry: separate values with one comma, and none at either end` });
        return z.NEVER;
      }
      return parts.length === 0 ? undefined : [...new Set(parts)];
    })
    .pipe(z.array(item).optional());
}

/** A whole-number parameter within [min, max]; absent or empty means `fallback`. */
export function integerParam(label: string, fallback: number, min: number, max: number) {
  const message = `${label} must be an integer between ${min} and ${max}`;
  return z
    .union([z.string(), z.number(), z.array(z.string())], { error: message })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const text = String(value).trim();
      const parsed = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
      if (!(parsed >= min && parsed <= max)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return parsed;
    })
    .pipe(z.number().int().min(min).max(max).default(fallback));
}

/** A single text parameter; absent or blank means "not given". */
export function textParam(label: string, maxLength: number) {
  return z
    .string({ error: `${label} must be a single string` })
    .trim()
    .max(maxLength, { error: `${label} must be at most ${maxLength} characters` })
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(z.string().max(maxLength).optional());
}

/** A single value of an enum; absent or empty means `fallback`. */
export function choiceParam<E extends z.ZodType<string>>(choices: E, fallback: z.output<E>) {
  return z.preprocess((value) => (value === '' ? undefined : value), choices.default(fallback as never));
}

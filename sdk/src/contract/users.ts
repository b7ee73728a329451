import { z } from 'zod';
import { labelledString, MetadataSchema, optionalText, TimestampSchema } from './common.js';

/** An end user's id in the caller's own system: 1 to 255 characters, surrounding blanks removed. */
export function externalIdField(label: string) {
  return labelledString(label)
    .trim()
    .min(1, { error: `${label} is required` })
    .max(255, { error: `${label} must be at most 255 characters` });
}

/** What a bad `avatarUrl` is told: not an http(s) address, or one with a character no address needs. */
const AVATAR_URL_MESSAGE = 'avatarUrl must be an http(s) URL';
/** Quotes, angle brackets, backquotes, backslashes, blanks, control and invisible (format) characters. */
const UNSAFE_IN_URL = /[\p{Cc}\p{Cf}\p{Z}"'<>`\\]/u;

/** The `externalId` of a request body. */
export const ExternalIdSchema = externalIdField('externalId');

/**
 * The end-user fields a request may carry (identify, and `endUser` of submit and vote).
 * An omitted field keeps its stored value; `null` clears it.
 */
function endUserFields(message: string) {
  return z.object(
  {
    externalId: ExternalIdSchema,
    email: z
      .email({ error: (issue) => (typeof issue.input === 'string' ? 'email must be a valid email address' : 'email must be a string') })
      .max(320, { error: 'email must be at most 320 characters' })
      .nullish(),
    name: optionalText('name', 200),
    avatarUrl: z
      .url({
        protocol: /^https?$/,
        abort: true,
        error: (issue) => (typeof issue.input === 'string' ? AVATAR_URL_MESSAGE : 'avatarUrl must be a string'),
      })
      .max(2048, { error: 'avatarUrl must be at most 2048 characters' })
      // The URL parser takes quotes, angle brackets, blanks and invisible characters (and escapes
      // them only in its own copy): an address stored as given must hold none, so that no page,
      // mail or app that shows it unescaped can be broken out of.
      .refine((url) => !UNSAFE_IN_URL.test(url), { error: AVATAR_URL_MESSAGE })
      .nullish(),
    metadata: MetadataSchema.nullish(),
  },
  { error: message },
);
}

/** The `endUser` object of submit and vote bodies. */
export const EndUserInputSchema = endUserFields('endUser must be an object with an externalId');

/** Body of POST /api/v1/identify (spec 4.1). */
export const IdentifyRequestSchema = endUserFields('The request body must be a JSON object with an externalId');

/** An end user as the API returns it (spec 2.5); metadata is never returned. */
export const IdentifiedUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  createdAt: TimestampSchema,
});

/** Response 200 of POST /api/v1/identify. */
export const IdentifyResponseSchema = z.object({ user: IdentifiedUserSchema });

export type EndUserInput = z.input<typeof EndUserInputSchema>;
export type IdentifyRequest = z.input<typeof IdentifyRequestSchema>;
export type IdentifiedUser = z.infer<typeof IdentifiedUserSchema>;
export type IdentifyResponse = z.infer<typeof IdentifyResponseSchema>;

import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/*
 * The signed token of a one-click unsubscribe (RFC 8058, docs/notifications.md): it names the end
 * user, their project and maybe one item, so the link works without signing in, and only for the
 * person it was sent to. HS256 with a key derived from the server's secret (db/voter-secret.ts),
 * which every instance shares, so any instance accepts a link another one mailed. Each carries the
 * time its email was made (`iat`) and works for UNSUBSCRIBE_LINK_DAYS after it (`exp`): a link
 * copied out of an old email stops working, and each email carries fresh ones. A token of an
 * earlier version has neither claim: it keeps working, as those versions promised (no expiry).
 */

const AUDIENCE = 'feedback-unsubscribe';

/**
 * How long an unsubscribe link works after its email is sent, in days: long enough for an email
 * found weeks later (US CAN-SPAM asks for 30 days), and every new email carries links of its own.
 */
export const UNSUBSCRIBE_LINK_DAYS = 90;

/** What a token says: who, in which project, and from which item (null: every email of the project). */
export interface UnsubscribeClaims {
  projectId: string;
  endUserId: string;
  feedbackId: string | null;
}

/** The key of the tokens, derived from the server's secret so that this use never shares a key with another. */
export function unsubscribeKey(serverSecret: Buffer): Uint8Array {
  return createHmac('sha256', serverSecret).update('notifications unsubscribe v1').digest();
}

/** A token for `claims`, issued at `issuedAt` (the email's time) and working UNSUBSCRIBE_LINK_DAYS after it. */
export async function signUnsubscribe(key: Uint8Array, claims: UnsubscribeClaims, issuedAt: Date = new Date()): Promise<string> {
  const iat = Math.floor(issuedAt.getTime() / 1000);
  return new SignJWT({ p: claims.projectId, f: claims.feedbackId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.endUserId)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + UNSUBSCRIBE_LINK_DAYS * 86_400)
    .sign(key);
}

/**
 * The claims of a token this server signed; 'expired' for one it signed whose time has passed
 * (its signature holds); undefined for anything else (forged, cut short, of another use).
 */
export async function verifyUnsubscribe(key: Uint8Array, token: string, now: Date = new Date()): Promise<UnsubscribeClaims | 'expired' | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: AUDIENCE, currentDate: now });
    if (typeof payload.sub !== 'string' || typeof payload['p'] !== 'string') return undefined;
    const feedbackId = payload['f'];
    return { endUserId: payload.sub, projectId: payload['p'], feedbackId: typeof feedbackId === 'string' ? feedbackId : null };
  } catch (error) {
    // jose checks the signature before the claims: an expired token is one this server signed.
    return error instanceof errors.JWTExpired ? 'expired' : undefined;
  }
}

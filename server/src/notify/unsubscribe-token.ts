import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/*
 * The signed token of a one-click unsubscribe (RFC 8058, docs/notifications.md): it names the end
 * user, their project and maybe one item, so the link works without signing in, and only for the
 * person it was sent to. HS256 with a key derived from the server's secret (db/voter-secret.ts),
 * which every instance shares, so any instance accepts a link another one mailed. It has no expiry:
 * an unsubscribe link in an old message must still work (its only power is to stop mail).
 */

const AUDIENCE = 'feedback-unsubscribe';

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

/** A token for `claims`. */
export async function signUnsubscribe(key: Uint8Array, claims: UnsubscribeClaims): Promise<string> {
  return new SignJWT({ p: claims.projectId, f: claims.feedbackId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.endUserId)
    .setAudience(AUDIENCE)
    .sign(key);
}

/** The claims of a token this server signed, or undefined for anything else (forged, cut short, of another use). */
export async function verifyUnsubscribe(key: Uint8Array, token: string): Promise<UnsubscribeClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: AUDIENCE });
    if (typeof payload.sub !== 'string' || typeof payload['p'] !== 'string') return undefined;
    const feedbackId = payload['f'];
    return { endUserId: payload.sub, projectId: payload['p'], feedbackId: typeof feedbackId === 'string' ? feedbackId : null };
  } catch {
    return undefined;
  }
}

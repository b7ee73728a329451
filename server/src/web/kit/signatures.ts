import { timingSafeEqual } from 'node:crypto';

/**
 * Whether `given`, the base64url text of a signature a visitor sent back, is exactly the text of
 * `expected`, in constant time. Compared as text, not as the bytes it decodes to: base64url's last
 * character carries bits that decoding drops, so several texts decode to one signature, and a
 * changed one must not pass (the widget's stamp, the board's and the widget's sessions).
 */
export function sameSignature(given: string, expected: Buffer): boolean {
  const sent = Buffer.from(given);
  const wanted = Buffer.from(expected.toString('base64url'));
  return sent.length === wanted.length && timingSafeEqual(sent, wanted);
}

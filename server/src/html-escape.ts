/**
 * HTML's five special characters, escaped in one place for every floor: the pages' templates
 * (web/kit/html.ts) and the notification mail's HTML part (delivery/mail/mail-message.ts). A leaf:
 * it imports nothing.
 */

const SPECIAL = /[&<>"']/g;
const HAS_SPECIAL = /[&<>"']/;
const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute content (quotes included, so it is safe inside either kind of quoted attribute): the pages' spelling. */
export function escapeHtml(text: string): string {
  return HAS_SPECIAL.test(text) ? text.replace(SPECIAL, (char) => NAMED[char]!) : text;
}

/**
 * The same characters as numeric references (`&#60;`): the mail's spelling since its first
 * message, kept so that a message reads byte for byte as before.
 */
export function escapeHtmlNumeric(text: string): string {
  return text.replace(SPECIAL, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The board's paths, in one place for every floor: the pages, the notification mail's links
 * (delivery/mail/), the board settings' answer (domain/projects/). A leaf: it imports nothing.
 */
export const boardPaths = {
  board: (slug: string) => `/b/${encodeURIComponent(slug)}`,
  item: (slug: string, id: string) => `/b/${encodeURIComponent(slug)}/items/${encodeURIComponent(id)}`,
  vote: (slug: string, id: string) => `/b/${encodeURIComponent(slug)}/items/${encodeURIComponent(id)}/vote`,
  subscription: (slug: string, id: string) => `/b/${encodeURIComponent(slug)}/items/${encodeURIComponent(id)}/subscription`,
  submit: (slug: string) => `/b/${encodeURIComponent(slug)}/new`,
  similar: (slug: string) => `/b/${encodeURIComponent(slug)}/similar`,
  roadmap: (slug: string) => `/b/${encodeURIComponent(slug)}/roadmap`,
  roadmapColumn: (slug: string, status: string) => `/b/${encodeURIComponent(slug)}/roadmap/${encodeURIComponent(status)}`,
  changelog: (slug: string) => `/b/${encodeURIComponent(slug)}/changelog`,
  changelogEntry: (slug: string, id: string) => `/b/${encodeURIComponent(slug)}/changelog#entry-${encodeURIComponent(id)}`,
  changelogFeed: (slug: string) => `/b/${encodeURIComponent(slug)}/changelog.atom`,
  signIn: (slug: string) => `/b/${encodeURIComponent(slug)}/sign-in`,
  signOut: (slug: string) => `/b/${encodeURIComponent(slug)}/sign-out`,
  locale: (slug: string) => `/b/${encodeURIComponent(slug)}/locale`,
  /** Where a board serves its logo: the hash in the path, so a new logo is a new URL and each can be kept a year. */
  logo: (slug: string, hash: string) => `/b/${encodeURIComponent(slug)}/logo/${hash}`,
  /** The one-click unsubscribe of the notifications' mail (delivery/mail/mail-sender.ts). */
  unsubscribe: (slug: string, token: string) => `/b/${encodeURIComponent(slug)}/unsubscribe?token=${encodeURIComponent(token)}`,
};

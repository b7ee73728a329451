/** The board's paths, in one place. */
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
  /** The one-click unsubscribe of the notifications' mail (delivery/mail/mail-sender.ts writes the same address). */
  unsubscribe: (slug: string, token: string) => `/b/${encodeURIComponent(slug)}/unsubscribe?token=${encodeURIComponent(token)}`,
};

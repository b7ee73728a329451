/**
 * The words seeded feedback is made of. Titles and descriptions are built from these by templates
 * (see seed-items.ts), so a search finds realistic spreads of matches; the marker words below are
 * in no list here, so their frequency is exactly known.
 */

/**
 * Words that appear in exactly a known share of the seeded items (in the description, or in the
 * title when an item has none), and nowhere else: a search for one of them matches exactly
 * `markerItemCount(marker, count)` items of a seed of `count`. Benchmarks and tests rely on them.
 */
export const SEED_MARKERS = [
  { word: 'quokka', every: 10 },
  { word: 'axolotl', every: 100 },
  { word: 'narwhal', every: 1000 },
] as const;

export type SeedMarker = (typeof SEED_MARKERS)[number];

/** Items 0, every, 2 × every, … carry the marker: ⌈count / every⌉ of them. */
export function markerItemCount(marker: SeedMarker, count: number): number {
  return Math.ceil(count / marker.every);
}

export const FEATURES = [
  'dark mode', 'CSV export', 'Slack integration', 'search', 'keyboard shortcuts', 'mobile app', 'SSO login',
  'bulk editing', 'webhooks', 'calendar view', 'password reset', 'public API', 'custom fields', 'offline mode',
  'two-factor login', 'Zapier integration', 'PDF invoices', 'translations', 'audit log', 'public roadmap',
  'notifications', 'dashboard', 'file uploads', 'billing page', 'team permissions', 'weekly reports',
  'email digest', 'Kanban board', 'time tracking', 'data import', 'tags', 'saved filters', 'charts',
  'print view', 'GitHub integration', 'Jira sync', 'Google Calendar sync', 'browser extension',
  'Android app', 'iPhone app', 'onboarding tour', 'settings page', 'user profiles', 'sharing links',
  'Markdown editor', 'attachments', 'activity feed', 'status page', 'single sign-on', 'spreadsheet view',
] as const;

export const CONTEXTS = [
  'uploading a large file', 'switching workspaces', 'using Safari', 'the page is refreshed',
  'logging in with Google', 'the screen is rotated', 'saving a draft', 'exporting more than 1000 rows',
  'the network drops', 'changing the language', 'opening a shared link', 'pasting an image',
  'sorting by date', 'the session expires', 'zooming in', 'using Firefox', 'two people edit at once',
  'the list is empty', 'dragging a card', 'importing from Trello',
] as const;

export const SYMPTOMS = [
  'crashes', 'fails silently', 'is very slow', 'shows an error', 'does not load', 'loses my changes',
  'looks broken', 'freezes', 'logs me out', 'shows the wrong date',
] as const;

export const ACTIONS = [
  'export my data', 'invite a teammate', 'change my email address', 'reset two-factor login',
  'archive old projects', 'merge duplicate entries', 'schedule a report', 'undo a deletion',
  'restrict access to a board', 'connect my calendar', 'change the default view', 'move items between projects',
  'add a custom domain', 'download invoices', 'turn off notifications', 'rename a workspace',
] as const;

export const TOOLS = ['Slack', 'Microsoft Teams', 'Zapier', 'GitHub', 'GitLab', 'Jira', 'Notion', 'Salesforce', 'HubSpot', 'Discord'] as const;

export const QUALITIES = ['faster', 'simpler', 'more flexible', 'easier to find', 'customisable', 'accessible', 'less noisy', 'clearer'] as const;

/** Sentences of descriptions; `{feature}`, `{context}`, `{symptom}`, `{action}` and `{tool}` are filled in. */
export const SENTENCES = [
  'It happens every time after {context}.',
  'The {feature} {symptom} for our whole team.',
  'We would use {feature} every day if it worked with {tool}.',
  'Right now we have to {action} by hand, which takes ages.',
  'Please make the {feature} {quality}.',
  'Steps: open the {feature}, then try {context}.',
  'Our customers keep asking how to {action}.',
  'This blocks our rollout to the rest of the company.',
  'Competitors already offer this.',
  'A workaround would be fine for now.',
  'Happy to test a beta version.',
  'We are on the business plan, if that matters.',
  'It started after the last update.',
  'Not urgent, but it would save us a lot of clicks.',
  'Could the {feature} also work with {tool}?',
  'I could not find anything about this in the help center.',
] as const;

export const FIRST_NAMES = [
  'Ada', 'Ben', 'Chloé', 'Dmitri', 'Emma', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Lars', 'Maya',
  'Nikolai', 'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sven', 'Tomás', 'Uma', 'Vera', 'Wei', 'Ximena', 'Yusuf', 'Zoe',
  'Amara', 'Bruno', 'Carmen', 'Dev', 'Elif', 'Finn',
] as const;

export const LAST_NAMES = [
  'Andersen', 'Baker', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Hughes', 'Ivanova', 'Jensen', 'Kowalski',
  'Lopez', 'Müller', 'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Schmidt', 'Tanaka', 'Urban', 'Varga',
  'Wong', 'Yilmaz', 'Zhang', 'Novak', 'Silva', 'Kim',
] as const;

export const PLANS = ['free', 'starter', 'business', 'enterprise'] as const;
export const SOURCES = ['web', 'ios', 'android', 'api', 'email'] as const;
export const BROWSERS = ['Chrome 131', 'Firefox 133', 'Safari 18', 'Edge 131'] as const;

/** What the owning team writes in comments. */
export const TEAM_COMMENTS = [
  'Thanks for the report! We can reproduce it and are working on a fix.',
  'Thanks for the idea. We have added it to our roadmap.',
  'This is now live for everyone. Let us know how it works for you.',
  'Could you tell us which browser and version you use?',
  'We are looking into this and will update this thread.',
  'Good news: a fix is in the next release.',
  'We decided not to build this for now, but we will keep listening.',
  'You can already do this under Settings, then Advanced.',
  'Merged with a similar request, so the votes add up.',
  'Thanks, this helps us prioritise.',
] as const;

/** What end users write in comments. */
export const USER_COMMENTS = [
  '+1, we need this too.',
  'Same problem here since last week.',
  'This would make my day.',
  'Any update on this?',
  'Our whole team is waiting for this.',
  'Works for me now, thanks!',
  'I found a workaround: export first, then reload.',
  'Still happening on the latest version.',
  'Please prioritise this one.',
  'Is there an ETA?',
  'Would love to see this on mobile as well.',
  'Upvoted. This is the main reason we are evaluating alternatives.',
] as const;

/** An optional second sentence of a comment. */
export const COMMENT_TAILS = [
  'Thanks for listening.',
  'Happy to share more details.',
  'Screenshots on request.',
  'We have about 40 people affected.',
  'Keep up the good work.',
  'Cheers.',
] as const;

export const TEAM_NAMES = ['Support Team', 'Alex from Product', 'Sam (Engineering)', 'Priya from Success', 'The Product Team'] as const;

/**
 * The words seeded titles are made of (see seed-titles.ts). Each list holds values that read well
 * in every combination with the others of its shape, and no two values of a list share their
 * wording, so that two titles differ in what they ask, not only in how. No marker word of
 * vocabulary.ts is in any of them.
 */

/** Things of a business app, plural, as they follow a verb. */
export const OBJECTS = [
  'tasks', 'projects', 'invoices', 'reports', 'contacts', 'dashboards', 'tickets', 'orders', 'customers',
  'events', 'notes', 'documents', 'forms', 'time entries', 'expenses', 'leads', 'deals', 'meetings', 'products',
  'campaigns', 'surveys', 'articles', 'checklists', 'milestones', 'subtasks', 'quotes', 'receipts', 'payments',
  'bookings', 'shifts', 'assets', 'vendors', 'contracts', 'purchase orders', 'support requests', 'goals',
  'timesheets', 'folders', 'spreadsheets', 'recordings', 'playbooks', 'estimates', 'suppliers', 'applicants', 'courses',
] as const;

/** What an idea asks to do with an object. */
export const IDEA_ACTIONS = [
  'Export {object} to Excel', 'Bulk edit {object}', 'Archive old {object}', 'Duplicate {object}',
  'Filter {object} by owner', 'Sort {object} by last update', 'Share {object} with a public link', 'Print {object}',
  'Restore deleted {object}', 'Import {object} from a CSV file', 'Custom fields on {object}', 'Tags for {object}',
  'Pin important {object}', 'Comment threads on {object}', 'Version history for {object}', 'Lock {object} against edits',
  'Merge duplicate {object}', 'Templates for new {object}', 'Move {object} between workspaces', 'Assign {object} to a teammate',
  'Colour coding for {object}', 'Approval workflow for {object}', 'Full-text search in {object}', 'Calendar view of {object}',
  'Kanban view of {object}', 'Weekly digest of new {object}', 'Hide {object} from guests', 'Drag and drop to reorder {object}',
  'Read-only access to {object}', 'Bulk delete {object}', 'Link related {object}', 'Audit trail for {object}',
  'Reminders before {object} are due', 'Custom statuses for {object}', 'Star favourite {object}', 'Split large {object} into parts',
  'Quick preview of {object}', 'Show the total count of {object}', 'Set an owner for {object}', 'Automatic numbering of {object}',
] as const;

/** Where, for whom or how: the end of an idea or a question. None is empty (a title without one is another shape). */
export const QUALIFIERS = [
  'in the mobile app', 'on the Android app', 'on iPad', 'from the start page', 'for guest users', 'for team admins',
  'without admin rights', 'through the API', 'in one click', 'across all workspaces', 'per team', 'every Monday',
  'from the search results', 'in the browser extension', 'in the desktop app', 'from the inbox', 'on the free plan',
  'for viewers', 'by date range', 'from the sidebar', 'from the list view', 'on small screens',
  'for external clients', 'during onboarding', 'for the whole company', 'per workspace', 'from the command palette',
  'in the new editor', 'on the enterprise plan', 'in the admin console', 'for new members', 'in shared views',
  'from the home screen', 'with a screen reader', 'in other languages', 'on slow connections', 'in the customer portal',
  'for each client', 'before the end of the month', 'with two-factor login enabled',
] as const;

/** Tools to integrate with, the most asked for first (the short titles take the first ones only). */
export const TOOLS = [
  'Slack', 'Microsoft Teams', 'Zapier', 'GitHub', 'GitLab', 'Jira', 'Notion', 'Salesforce', 'HubSpot', 'Discord',
  'Google Sheets', 'Google Calendar', 'Outlook', 'Trello', 'Asana', 'Linear', 'Intercom', 'Zendesk', 'Stripe',
  'QuickBooks', 'Xero', 'Dropbox', 'Google Drive', 'Airtable', 'Shopify', 'Mailchimp', 'Pipedrive', 'Figma',
] as const;

/** Parts of the product, singular, as in the middle of a sentence (a title capitalises its first letter). */
export const PARTS = [
  'dashboard', 'search', 'CSV export', 'PDF export', 'calendar view', 'Kanban board', 'Google login', 'password reset',
  'two-factor login', 'file upload', 'image preview', 'invoice page', 'billing page', 'settings page', 'team invite',
  'notification bell', 'email digest', 'mobile app', 'desktop app', 'browser extension', 'Markdown editor',
  'rich text editor', 'comment box', 'activity feed', 'timeline view', 'Gantt chart', 'report builder', 'chart widget',
  'import wizard', 'onboarding tour', 'sidebar', 'command palette', 'date picker', 'time tracker', 'public share link',
  'webhook delivery', 'API token page', 'audit log', 'profile page', 'workspace switcher', 'autosave', 'calendar sync',
  'spreadsheet view', 'print view', 'undo button',
] as const;

/** What goes wrong, after a part. */
export const SYMPTOMS = [
  'crashes', 'is very slow', 'shows a blank page', 'shows the wrong date', 'loses my changes', 'does not load',
  'times out', 'logs me out', 'shows error 500', 'freezes', 'ignores my filters', 'shows duplicate entries',
  'cuts off long names', 'jumps back to the top', 'does not save', "shows another user's data", 'uses the wrong time zone',
  'does not update in real time', 'flickers', 'sends notifications twice',
] as const;

/**
 * When it goes wrong. The titles with a platform take the second half, so that no title is
 * another one with " on iOS" added.
 */
export const SITUATIONS = [
  'when uploading a large file', 'after switching workspaces', 'after a page refresh', 'when logging in with Okta',
  'when the screen is rotated', 'while saving a draft', 'when exporting more than 1,000 rows', 'when the network drops',
  'after changing the language', 'when opening a shared link', 'when pasting an image', 'when sorting by date',
  'after the session expires', 'when zoomed in', 'when two people edit at once', 'when the list is empty',
  'while dragging a card', 'after importing from Trello', 'with a screen reader', 'in dark mode', 'over a VPN',
  'behind a corporate proxy', 'over a slow connection', 'after the latest update', 'when a name has an emoji',
  'with a German keyboard layout', 'at midnight UTC', 'around daylight saving changes', 'with an ad blocker',
  'when filtering by tag', 'from the search page', 'for guest accounts', 'with a brand-new account', 'with SSO enabled',
  'when the sidebar is collapsed', 'when printing', 'after pressing undo', 'with right-to-left text',
  'with 200 items in a list', 'at the start of a month',
] as const;
export const SITUATIONS_ALONE = SITUATIONS.slice(0, 20);
export const SITUATIONS_ON_PLATFORMS = SITUATIONS.slice(20);

export const PLATFORMS = ['Safari', 'Firefox', 'Chrome', 'Edge', 'Android', 'iOS'] as const;

/** A user's question about an object, without its question mark (a qualifier may follow). */
export const QUESTIONS = [
  'How do I change the owner of {object}', 'Can I see who edited {object}', 'How do I limit who can see {object}',
  'Is there a way to get notified about new {object}', 'Where do I find archived {object}', 'Can I recover {object} deleted last week',
  'How do I rename {object} in bulk', "Why can't I edit {object}", 'What is the limit on the number of {object}',
  'Can guests comment on {object}', 'How do I set default values for new {object}', 'Is it possible to group {object} by client',
  'How do I stop emails about {object}', 'Can I export only selected {object}', 'How are {object} counted on my invoice',
  'Where did the filter for {object} go', 'How do I hand over {object} to a colleague who left', 'Do {object} count towards the storage limit',
  'Can I schedule {object} in advance', 'How do I add a column to {object}', 'Is there an API endpoint for {object}',
  'How do I embed {object} on our website', 'Can I require approval before {object} are published', 'How long are deleted {object} kept',
  'Why are some {object} missing after the import', 'Can I pause {object} while we are on holiday',
  'Who gets notified when {object} change', 'Can I sort {object} by a custom field', 'How do I get a printable overview of {object}',
  'Where do I see the history of {object}', 'Can two teams share the same {object}', 'How do I undo a bulk change to {object}',
  'Is there a size limit for attachments on {object}', 'Can I lock {object} after approval', 'How do I move {object} to another workspace',
  'Why do {object} show up twice in search', 'Can I create {object} by email', 'How do I turn off reminders for {object}',
  'What happens to {object} when someone leaves the company', 'Can I copy {object} from last year',
] as const;

/** What a user thinks of a part (feedback of the type "other"). */
export const OPINIONS = [
  'Love the new {part}', 'The {part} feels cluttered', 'Thanks for fixing the {part}', 'The {part} is confusing for new users',
  'Mixed feelings about the {part}', 'The {part} was better before', 'Big fan of the {part}', 'We rely on the {part} daily',
  'The {part} needs clearer labels', 'The {part} looks dated', 'Small wording issue in the {part}',
  'The {part} saves us hours every week', 'Too many clicks in the {part}', 'Hard to find the {part}', 'Low contrast in the {part}',
  'The {part} finally feels fast',
] as const;

/** Since when or compared to what, after an opinion; the titles with a platform take the second half, as with SITUATIONS. */
export const SINCE = [
  'since the redesign', 'after the last update', 'compared to last year', 'for the past few weeks', 'since the menu moved',
  'since the new pricing', 'after the migration', 'since the beta', 'compared to the old version', 'since this morning',
  'for our support team', 'for our sales team', 'for our accountants', 'for our designers', 'for our interns',
  'for a team of our size', 'for occasional users', 'for power users', 'on a big monitor', 'on a laptop screen',
  'in our weekly meetings', 'in customer demos', 'during busy weeks', 'at the end of the quarter', 'when onboarding clients',
  'with large accounts', 'with many projects', 'in the evening', 'for left-handed tablet use', 'in high-contrast mode',
  'since the outage last week', 'for our freelancers', 'for a non-profit like ours', 'during the yearly audit', 'for our agency clients',
  'since the rebrand', 'for our warehouse staff', 'in training sessions', 'for our board members', 'during tax season',
] as const;
export const SINCE_ALONE = SINCE.slice(0, 20);
export const SINCE_ON_PLATFORMS = SINCE.slice(20);

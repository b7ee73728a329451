// The team pages' one script (web/team/team-assets.ts serves it under a content-hashed name).
// Every team page works without it: forms post and the server answers with a redirect. Where it
// runs, it adds keyboard shortcuts for triage, listed on an overlay that `?` opens, and puts the
// focus on a refused form's error summary.
'use strict';

const items = () => [...document.querySelectorAll('[data-item]')];
const current = () => document.activeElement?.closest('[data-item]') ?? null;

/** Moves the focus to the item `step` places from the current one (the first, when none is current). */
function move(step) {
  const list = items();
  if (list.length === 0) return;
  const index = list.indexOf(current());
  const next = index === -1 ? (step > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, index + step));
  const link = list[next].querySelector('.item-title a');
  link?.focus();
  link?.scrollIntoView({ block: 'nearest' });
}

/** The item's page, or a part of it (`#reply`, `#merge-search`): from the inbox, the current item's. */
function openItem(part) {
  const link = current()?.querySelector('.item-title a');
  if (link) location.href = link.getAttribute('href') + (part ? `#${part}` : '');
}

/** Puts the focus on a control of this page, if it has it. */
function focus(selector) {
  const control = document.querySelector(selector);
  if (!control) return false;
  control.focus();
  control.scrollIntoView({ block: 'nearest' });
  return true;
}

const shortcuts = {
  j: () => move(1),
  k: () => move(-1),
  x: () => {
    const box = current()?.querySelector('input[type="checkbox"]');
    if (box) box.checked = !box.checked;
  },
  s: () => focus('#new-status') || focus('#status'),
  r: () => focus('#reply') || openItem('reply'),
  m: () => focus('#merge-search') || openItem('merge-search'),
  o: () => openItem(''),
  '?': () => {
    const dialog = document.getElementById('shortcuts');
    if (dialog && !dialog.open) dialog.showModal();
  },
};

document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  // Typing in a field is typing, not a shortcut.
  if (event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable]')) return;
  if (document.querySelector('dialog[open]')) return;
  const action = shortcuts[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

// The overlay and its hint exist in the page, hidden: shown only where this script runs.
for (const hint of document.querySelectorAll('[data-shortcuts-hint]')) hint.hidden = false;
document.querySelector('[data-close-shortcuts]')?.addEventListener('click', () => document.getElementById('shortcuts')?.close());

// A link to a part of an item's page (`r`, `m` from the inbox) lands with that control focused.
if (location.hash === '#reply' || location.hash === '#merge-search') focus(location.hash);

// GOV.UK's habit: after a refused form, the error summary has the focus, so it is read first.
document.querySelector('[data-error-summary]')?.focus();

/** The language switcher posts as soon as a language is picked (without script, its button does). */
document.addEventListener('change', (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.form?.hasAttribute('data-language-switcher')) select.form.requestSubmit();
});

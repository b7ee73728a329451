// The team pages' one script (web/team/team-assets.ts serves it under a content-hashed name).
// Every team page works without it: forms post and the server answers with a redirect. Where it
// runs, it adds keyboard shortcuts for triage, listed on an overlay that `?` opens, makes "Select
// all on this page" tick the rows and says how many are selected, dismisses the banner in place,
// and puts the focus on a refused form's error summary.
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

/**
 * The Held view's decision (`a` approve, `r` reject) on the selected posts, or on the one with
 * the focus when none is selected: the form's own button, so it posts as a click would. False
 * on any other page.
 */
function decideHeld(decision) {
  const form = document.querySelector('form[data-held]');
  if (!form) return false;
  if (!rowBoxes().some((box) => box.checked)) {
    const box = current()?.querySelector('input[type="checkbox"][name="id"]');
    if (!box) return true;
    box.checked = true;
  }
  form.requestSubmit(form.querySelector(`button[name="decision"][value="${decision}"]`));
  return true;
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
    if (!box) return;
    box.checked = !box.checked;
    showSelected();
  },
  s: () => focus('#new-status') || focus('#status'),
  a: () => decideHeld('approve'),
  // In the Held view `r` rejects; elsewhere it is the reply.
  r: () => decideHeld('reject') || focus('#reply') || openItem('reply'),
  m: () => focus('#merge-search') || openItem('merge-search'),
  o: () => openItem(''),
  '?': () => {
    const dialog = document.getElementById('shortcuts');
    if (!dialog || dialog.open) return;
    opener = document.activeElement;
    dialog.showModal();
  },
};

/** What had the focus when the overlay opened: it has it again when the overlay closes (by Escape or its button). */
let opener = null;
const overlay = document.getElementById('shortcuts');
overlay?.querySelector('[data-close-shortcuts]')?.addEventListener('click', () => overlay.close());
overlay?.addEventListener('close', () => {
  if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
  opener = null;
});

// Select all on this page: the box still posts `all=page` (the server's meaning without the
// script); here it also ticks or unticks every row, and the bar says how many are selected.
const selectAll = document.querySelector('[data-select-all]');
const selectedCount = document.querySelector('[data-selected-count]');
const rowBoxes = () => [...document.querySelectorAll('[data-item] input[type="checkbox"][name="id"]')];

// The page's language, as the server wrote it: its plural rules and its digits.
const lang = document.documentElement.lang || 'en';
const pluralRules = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/**
 * A count in the page's language: the element carries the catalogue's message once per plural
 * category of that language (`data-plural-one`, `data-plural-few`, …, views/plural-forms.ts);
 * Intl.PluralRules picks the category as the server's messages do, and `{count}` takes the number.
 */
function counted(element, n) {
  const category = pluralRules.select(n);
  const form = element.dataset[`plural${category.charAt(0).toUpperCase()}${category.slice(1)}`] ?? element.dataset.pluralOther ?? '';
  return form.replace('{count}', numbers.format(n));
}

/** Says how many rows are ticked, and keeps "Select all" in step (ticked, unticked, or mixed). */
function showSelected() {
  if (!selectAll || !selectedCount) return;
  const boxes = rowBoxes();
  const ticked = boxes.filter((box) => box.checked).length;
  selectAll.checked = boxes.length > 0 && ticked === boxes.length;
  selectAll.indeterminate = ticked > 0 && ticked < boxes.length;
  selectedCount.textContent = counted(selectedCount, ticked);
  selectedCount.hidden = false;
}

selectAll?.addEventListener('change', () => {
  for (const box of rowBoxes()) box.checked = selectAll.checked;
  showSelected();
});
for (const box of rowBoxes()) box.addEventListener('change', showSelected);
// A reload keeps the boxes the browser restored: say how many from the start.
showSelected();

// Dismiss hides the banner in place and takes its words out of the address, so a reload does not
// say them again (without the script, the link goes to that address).
document.querySelector('[data-dismiss-banner]')?.addEventListener('click', (event) => {
  event.preventDefault();
  const banner = event.currentTarget.closest('[data-banner]');
  if (banner) banner.hidden = true;
  history.replaceState(null, '', event.currentTarget.getAttribute('href'));
  document.getElementById('main')?.focus();
});

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

// A link to a part of an item's page (`r`, `m` from the inbox) lands with that control focused.
if (location.hash === '#reply' || location.hash === '#merge-search') focus(location.hash);

// GOV.UK's habit: after a refused form, the error summary has the focus, so it is read first.
document.querySelector('[data-error-summary]')?.focus();

/** The language switcher posts as soon as a language is picked (without script, its button does). */
document.addEventListener('change', (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.form?.hasAttribute('data-language-switcher')) select.form.requestSubmit();
});

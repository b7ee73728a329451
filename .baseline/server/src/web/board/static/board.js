// The board's one script (web/board/assets.ts serves it under a content-hashed name). Every page works
// without it: forms post and the server answers with a redirect. Where it runs, it only improves:
// a vote is sent in place, the list's filters apply as soon as one is chosen, and a form's error
// summary takes the focus.
'use strict';

/**
 * The page's language, for numbers grouped as the server writes them (its digits too: Arabic's
 * own). The words come from the server, in the catalogue's plural forms: the vote's answer
 * carries its `label`, the similar items' answer their texts.
 */
const LANG = document.documentElement.lang || 'en';

/** A vote form sends its POST with fetch, asks for JSON, and shows the new count and state in place. */
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-vote')) return;
  event.preventDefault();
  // form.elements: the button may stand elsewhere, tied by its `form` attribute (the submit form's similar items).
  const button = [...form.elements].find((element) => element instanceof HTMLButtonElement);
  if (!button || button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin',
    });
    // Anything but the vote itself (a limit, an item gone): the form posts as without script,
    // and the page that comes back says what happened.
    if (!response.ok) return form.submit();
    const result = await response.json();
    button.setAttribute('aria-pressed', String(result.voted));
    const count = button.querySelector('[data-count]');
    if (count) count.textContent = result.voteCount.toLocaleString(LANG); // grouped as the server writes it (parts.ts, voteButton)
    const noun = button.querySelector('[data-count-label]');
    if (noun && typeof result.label === 'string') noun.textContent = result.label;
  } catch {
    form.submit();
  } finally {
    button.removeAttribute('aria-busy');
  }
});

/**
 * The list's filters: choosing a status, a type or an order sends the GET form at once (the
 * search still waits for Enter, and the Apply button stays for a page without script). The page
 * that comes back gives the focus to the control that was changed, so a keyboard goes on from
 * where it was instead of from the top of the page.
 */
const FILTER_FOCUS = 'feedback-filter-focus';
const filters = document.querySelector('form.filters[method="get"]');
if (filters instanceof HTMLFormElement) {
  filters.addEventListener('change', (event) => {
    const control = event.target;
    if (!(control instanceof HTMLSelectElement) || !control.id) return;
    try {
      sessionStorage.setItem(FILTER_FOCUS, control.id);
    } catch {
      // No storage (a private window may refuse it): the list still applies, from the top.
    }
    filters.requestSubmit();
  });
  try {
    const id = sessionStorage.getItem(FILTER_FOCUS);
    sessionStorage.removeItem(FILTER_FOCUS);
    if (id) document.getElementById(id)?.focus();
  } catch {
    // As above.
  }
}

// GOV.UK's habit: after a refused form, the error summary has the focus, so it is read first.
document.querySelector('[data-error-summary]')?.focus();

/**
 * The submit form's similar items: while a title is typed (a moment after the last key), the
 * items like it are asked for and listed under it, as the form lists them without script when
 * "Look for similar feedback first" is pressed: status, votes, and a vote button that votes in
 * place (the handler above), whose form is written after the submit form as the server writes it
 * (forms cannot nest). Built with text nodes only: no markup from the answer is ever parsed.
 */
const similar = document.querySelector('[data-similar]');
const similarForms = document.querySelector('[data-similar-forms]');
const title = document.getElementById('title');

/** A vote button as the server's voteButton writes it, tied to its form by id; `texts` are the answer's (views/submit-page.ts, similarTexts). */
function voteButton(item, formId, texts) {
  const button = document.createElement('button');
  button.type = 'submit';
  button.className = 'vote-button';
  button.setAttribute('form', formId);
  button.setAttribute('aria-pressed', String(item.voted));
  const arrow = document.createElement('span');
  arrow.setAttribute('aria-hidden', 'true');
  arrow.textContent = '\u25B2';
  const count = document.createElement('span');
  count.className = 'vote-count';
  count.setAttribute('data-count', '');
  count.textContent = item.voteCount.toLocaleString(LANG);
  const number = document.createElement('span');
  number.className = 'vote-number';
  number.append(arrow, count);
  const noun = document.createElement('span');
  noun.className = 'vote-label';
  noun.setAttribute('data-count-label', '');
  noun.textContent = item.voteLabel;
  const name = document.createElement('span');
  name.className = 'visually-hidden';
  const isolate = document.createElement('bdi');
  isolate.textContent = item.title;
  // The message's words around the title, wherever the language puts it.
  const at = texts.voteFor.indexOf('{title}');
  const [before, after] = at < 0 ? [texts.voteFor, ''] : [texts.voteFor.slice(0, at), texts.voteFor.slice(at + '{title}'.length)];
  name.append(` ${before}`, isolate, after);
  button.append(number, noun, name);
  return button;
}

/** The vote form of a listed item: where the vote goes, and where it comes back to if it posts after all. */
function voteForm(item, formId, back) {
  const form = document.createElement('form');
  form.id = formId;
  form.method = 'post';
  form.action = item.voteUrl;
  form.className = 'vote';
  form.setAttribute('data-vote', '');
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'return';
  input.value = back;
  form.append(input);
  return form;
}

function showSimilar(items, text, texts) {
  if (items.length === 0) {
    similarForms.replaceChildren();
    return similar.replaceChildren();
  }
  const heading = document.createElement('h2');
  heading.textContent = texts.heading;
  const list = document.createElement('ul');
  list.className = 'similar-items';
  const forms = [];
  const back = `${similar.dataset.return}?title=${encodeURIComponent(text)}`;
  for (const item of items) {
    const formId = `vote-${item.id}`;
    forms.push(voteForm(item, formId, back));
    const entry = document.createElement('li');
    const body = document.createElement('span');
    body.className = 'similar-body';
    const link = document.createElement('a');
    link.href = item.url;
    // In <bdi>, as the server writes it: a bidi control in a title cannot reorder the status after it.
    const isolate = document.createElement('bdi');
    isolate.textContent = item.title;
    link.append(isolate);
    const meta = document.createElement('span');
    meta.className = 'similar-meta';
    const status = document.createElement('span');
    status.className = 'tag';
    const hidden = document.createElement('span');
    hidden.className = 'visually-hidden';
    hidden.textContent = `${texts.status} `;
    status.append(hidden, item.statusText);
    meta.append(status);
    body.append(link, ' ', meta);
    entry.append(voteButton(item, formId, texts), body);
    list.append(entry);
  }
  similarForms.replaceChildren(...forms);
  similar.replaceChildren(heading, list);
}

if (similar && similarForms && title) {
  let timer;
  let asked = 0;
  title.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const ask = ++asked;
      const text = title.value.trim();
      if (text.length < 3) return showSimilar([], text);
      try {
        const response = await fetch(`${similar.dataset.similar}?title=${encodeURIComponent(text)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        if (!response.ok || ask !== asked) return;
        const { items, texts } = await response.json();
        if (ask !== asked) return;
        showSimilar(items, text, texts);
      } catch {
        // No hint this time: the form still posts.
      }
    }, 250);
  });
}

/** The language switcher posts as soon as a language is picked (without script, its button does). */
document.addEventListener('change', (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.form?.hasAttribute('data-language-switcher')) select.form.requestSubmit();
});

/**
 * A comment form (views/comment-parts.ts) posts with fetch and asks for JSON: the new comment, as
 * the server writes it, goes in place (a reply under its comment), the form is emptied and the
 * heading's count changes, without a reload. A refusal (spam guard, the address's budget, the
 * text) is shown in the form's alert with the text kept; anything else posts as without script.
 */
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-comment-form') || form.action.endsWith('/edit')) return;
  event.preventDefault();
  const button = form.querySelector('button[type="submit"]');
  const problem = form.querySelector('[data-form-problem]');
  if (!button || button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin',
    });
    const result = await response.json().catch(() => undefined);
    if (!result) return form.submit();
    if (!response.ok) {
      if (problem) problem.textContent = result.error;
      form.querySelector('textarea')?.setAttribute('aria-invalid', 'true');
      return;
    }
    if (result.held) {
      // Held for the team (docs/moderation.md): nothing to add in place; the notice says why.
      let notice = document.querySelector('[data-comment-held]');
      if (!notice) {
        notice = document.createElement('p');
        notice.className = 'form-notice';
        notice.setAttribute('role', 'status');
        notice.setAttribute('data-comment-held', '');
        form.before(notice);
      }
      notice.textContent = result.message;
      if (problem) problem.textContent = '';
      form.reset();
      form.closest('details')?.removeAttribute('open');
      return;
    }
    const list = result.parentId ? document.querySelector(`[data-replies="${CSS.escape(result.parentId)}"]`) : document.querySelector('[data-comments]');
    if (!list) return location.assign(`${location.pathname}#comment-${result.id}`);
    const template = document.createElement('template');
    template.innerHTML = result.html;
    list.append(template.content);
    document.querySelector('[data-no-comments]')?.remove();
    const count = document.getElementById('comments-title');
    if (count) count.textContent = result.count;
    if (problem) problem.textContent = '';
    form.reset();
    form.querySelector('textarea')?.removeAttribute('aria-invalid');
    form.closest('details')?.removeAttribute('open');
    // The new comment takes the focus, so a screen reader reads what was posted and where.
    const added = document.getElementById(`comment-${result.id}`);
    if (added) {
      added.setAttribute('tabindex', '-1');
      added.focus();
    }
  } catch {
    form.submit();
  } finally {
    button.removeAttribute('aria-busy');
  }
});

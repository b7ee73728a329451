// The board's one script (web/board/assets.ts serves it under a content-hashed name). Every page works
// without it: forms post and the server answers with a redirect. Where it runs, it only improves:
// a vote is sent in place, and a form's error summary takes the focus.
'use strict';

/** A vote form sends its POST with fetch, asks for JSON, and shows the new count and state in place. */
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-vote')) return;
  event.preventDefault();
  const button = form.querySelector('button');
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
    if (count) count.textContent = String(result.voteCount);
    const noun = button.querySelector('[data-count-label]');
    if (noun) noun.textContent = result.voteCount === 1 ? 'vote' : 'votes';
  } catch {
    form.submit();
  } finally {
    button.removeAttribute('aria-busy');
  }
});

// GOV.UK's habit: after a refused form, the error summary has the focus, so it is read first.
document.querySelector('[data-error-summary]')?.focus();

/**
 * The submit form's similar items: while a title is typed (a moment after the last key), the
 * items like it are asked for and listed under it, as the form lists them without script when
 * "Look for similar feedback first" is pressed. Built with text nodes only: no markup from the
 * answer is ever parsed.
 */
const similar = document.querySelector('[data-similar]');
const title = document.getElementById('title');
if (similar && title) {
  let timer;
  let asked = 0;
  title.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const ask = ++asked;
      const text = title.value.trim();
      if (text.length < 3) return similar.replaceChildren();
      try {
        const response = await fetch(`${similar.dataset.similar}?title=${encodeURIComponent(text)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        if (!response.ok || ask !== asked) return;
        const { items } = await response.json();
        if (ask !== asked) return;
        if (items.length === 0) return similar.replaceChildren();
        const heading = document.createElement('h2');
        heading.textContent = 'Already asked? Vote for it instead';
        const list = document.createElement('ul');
        for (const item of items) {
          const entry = document.createElement('li');
          const link = document.createElement('a');
          link.href = item.url;
          // In <bdi>, as the server writes it: a bidi control in a title cannot reorder the status and votes after it.
          const isolate = document.createElement('bdi');
          isolate.textContent = item.title;
          link.append(isolate);
          const meta = document.createElement('span');
          meta.textContent = ` ${item.status.charAt(0).toUpperCase()}${item.status.slice(1).replace(/-/g, ' ')} · ${item.voteCount} vote${item.voteCount === 1 ? '' : 's'}`;
          entry.append(link, ' ', meta);
          list.append(entry);
        }
        similar.replaceChildren(heading, list);
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

// The board's one script (web/assets.ts serves it under a content-hashed name). Every page works
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
  } catch {
    form.submit();
  } finally {
    button.removeAttribute('aria-busy');
  }
});

// GOV.UK's habit: after a refused form, the error summary has the focus, so it is read first.
document.querySelector('[data-error-summary]')?.focus();

// The widget's panel script (docs/widget.md): without it the panel is plain pages and forms, used
// anonymously. With it: the host's token, sent by the loader, is exchanged for a session held here
// in memory (never a cookie: a browser that blocks third-party cookies would drop it), sent as a
// header on every fetch; tabs and forms are fetched in place so the session stays; Esc and the
// close button ask the loader to close. Messages go to and come from the host origin only.
(function () {
  'use strict';
  var body = document.body;
  var host = body.getAttribute('data-origin');
  var framed = window.parent !== window;
  var session = '';
  var current = location.href;
  var timer = 0;

  function tell(type, extra) {
    if (!framed) return;
    var message = { type: 'feedback:' + type };
    for (var key in extra) message[key] = extra[key];
    window.parent.postMessage(message, host);
  }
  function headers(more) {
    var all = more || {};
    if (session) all['X-Feedback-Session'] = session;
    return all;
  }
  function setup() {
    var close = document.querySelector('[data-close]');
    if (close && framed) close.hidden = false;
    var look = document.querySelector('[data-look-first]');
    if (look) look.hidden = true;
  }
  function show(response, focus) {
    return response.text().then(function (text) {
      var page = new DOMParser().parseFromString(text, 'text/html');
      current = response.url;
      document.title = page.title;
      body.replaceChildren.apply(body, Array.prototype.slice.call(page.body.childNodes));
      setup();
      var target = focus && document.querySelector(focus);
      (target || document.querySelector('[data-main]')).focus();
    });
  }
  function go(url, focus) {
    return fetch(url, { headers: headers() }).then(function (response) { return show(response, focus); });
  }

  // The host's token, exchanged for a session bound to this project and this host origin.
  function exchange(token) {
    var form = new URLSearchParams({ token: token, origin: host });
    fetch(body.getAttribute('data-session-url'), { method: 'POST', body: form, headers: { Accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer) return;
        session = answer.session;
        clearTimeout(timer);
        // Renewed a minute before it ends, through the loader (which asks the host app for a new token).
        timer = setTimeout(function () { tell('token-needed'); }, Math.max(answer.expiresIn - 60, 30) * 1000);
        var tab = document.querySelector('[aria-current="page"]');
        return go(current, tab ? '[data-tab="' + tab.getAttribute('data-tab') + '"]' : null);
      });
  }
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== host || !event.data) return;
    if (event.data.type === 'feedback:token' && typeof event.data.token === 'string') exchange(event.data.token);
    if (event.data.type === 'feedback:focus') {
      var tab = document.querySelector('[aria-current="page"]');
      (tab || document.querySelector('[data-main]')).focus();
    }
  });

  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') tell('close');
  });
  document.addEventListener('click', function (event) {
    var target = event.target.closest ? event.target : event.target.parentElement;
    if (target.closest('[data-close]')) return tell('close');
    var link = target.closest('a[data-tab]');
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(link.href, '[data-tab="' + link.getAttribute('data-tab') + '"]');
  });
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var fields = new FormData(form);
    if (event.submitter && event.submitter.name) fields.append(event.submitter.name, event.submitter.value);
    var data = new URLSearchParams(fields);
    event.preventDefault();
    if (!form.hasAttribute('data-vote')) clearTimeout(typing);
    if (form.hasAttribute('data-vote')) {
      // A vote in place: the API's answer, and the button (inside the form, or naming it) updated.
      var button = form.querySelector('.vote-button') || document.querySelector('[form="' + form.id + '"]');
      fetch(form.action, { method: 'POST', body: data, headers: headers({ Accept: 'application/json' }) }).then(function (response) {
        // A refusal (too many votes from the address, say) is a page that says why: shown in place.
        if (!response.ok) return show(response);
        return response.json().then(function (answer) {
          if (!button) return;
          button.setAttribute('aria-pressed', answer.voted ? 'true' : 'false');
          button.querySelector('[data-count]').textContent = answer.voteCount;
          button.querySelector('[data-count-label]').textContent = answer.label;
        });
      });
      return;
    }
    fetch(form.action, { method: 'POST', body: data, headers: headers() }).then(function (response) { return show(response); });
  });

  // The similar items while a title is typed (GET similar, the markup the form shows without script).
  var typing = 0;
  document.addEventListener('input', function (event) {
    if (event.target.id !== 'title') return;
    clearTimeout(typing);
    typing = setTimeout(function () {
      var form = event.target.form;
      var url = new URL(form.getAttribute('data-similar-url'), location.href);
      var query = new URLSearchParams({ title: event.target.value });
      form.querySelectorAll('input[type="hidden"]').forEach(function (input) { query.set(input.name, input.value); });
      url.search = query;
      fetch(url, { headers: headers({ Accept: 'application/json' }) })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          // The form may be gone by now (sent, or another tab shown): then there is nothing to fill.
          var list = document.querySelector('[data-similar]');
          var forms = document.querySelector('[data-similar-forms]');
          if (!answer || !list || !forms || !document.body.contains(event.target)) return;
          list.innerHTML = event.target.value.trim() ? answer.list : '';
          forms.innerHTML = answer.forms;
        });
    }, 250);
  });

  setup();
  tell('ready');
})();
